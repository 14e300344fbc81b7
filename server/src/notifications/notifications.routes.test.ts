import { describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { createUser } from '../../test/factories'
import { requestsWithEmptyBodies } from '../../test/requests'
import { useTestApp } from '../../test/test-app'
import { notify, type NewNotification } from './notifications.service'

const MINUTE = 60_000

describe.each(dialects)('notifications on %s', (dialect) => {
  const t = useTestApp(dialect)
  const as = requestsWithEmptyBodies(t)

  const item = (userId: number, n: number): NewNotification => ({
    userId,
    kind: 'score_changed',
    text: { en: `Score ${n}`, ne: `अंक ${n}` },
    link: `/results/${n}`,
  })

  /** Notifies one by one, a minute apart, so created_at tells them apart. */
  async function notifyEach(items: NewNotification[]) {
    for (const one of items) {
      await t.database.transaction((trx) => notify(trx, [one], t.clock.now()))
      t.clock.advance(MINUTE)
    }
  }

  const stored = (userId: number) =>
    t.db.selectFrom('notifications').selectAll().where('user_id', '=', userId).orderBy('id').execute()

  it('lists the learner own notifications newest first, with the unread count', async () => {
    const learner = await createUser(t.database)
    const other = await createUser(t.database)
    const start = t.clock.now()
    await notifyEach([item(learner.id, 1), item(other.id, 2), item(learner.id, 3)])

    const { status, body } = await as(learner, 'GET', '/api/notifications/')
    expect(status).toBe(200)
    expect(body).toEqual({
      unread: 2,
      count: 2,
      page_size: 20,
      results: [
        {
          id: expect.any(Number),
          kind: 'score_changed',
          text: { en: 'Score 3', ne: 'अंक 3' },
          link: '/results/3',
          created_at: new Date(start + 2 * MINUTE).toISOString(),
          read: false,
        },
        expect.objectContaining({ text: { en: 'Score 1', ne: 'अंक 1' }, read: false }),
      ],
    })
  })

  it('pages by 20 and answers an empty page past the end', async () => {
    const learner = await createUser(t.database)
    await t.database.transaction((trx) =>
      notify(
        trx,
        Array.from({ length: 25 }, (_, n) => item(learner.id, n)),
        t.clock.now(),
      ),
    )
    const first = await as(learner, 'GET', '/api/notifications/?page=1')
    const second = await as(learner, 'GET', '/api/notifications/?page=2')
    const third = await as(learner, 'GET', '/api/notifications?page=3')
    expect(first.body.results).toHaveLength(20)
    expect(second.body.results).toHaveLength(5)
    expect(third.body).toMatchObject({ unread: 25, count: 25, results: [] })
    const ids = [...first.body.results, ...second.body.results].map((n: { id: number }) => n.id)
    expect(ids).toEqual([...ids].sort((a, b) => b - a))
    expect(new Set(ids).size).toBe(25)
  })

  it.each(['0', '-1', 'x', '1.5', '1000001'])('refuses page=%s with 400', async (page) => {
    const learner = await createUser(t.database)
    const { status, body } = await as(learner, 'GET', `/api/notifications/?page=${page}`)
    expect(status).toBe(400)
    expect(body).toMatchObject({ code: 'validation_error', errors: { page: [expect.any(String)] } })
  })

  it('needs a token', async () => {
    for (const [method, url] of [
      ['GET', '/api/notifications/'],
      ['POST', '/api/notifications/read/'],
    ] as const) {
      const response = await t.app.inject({ method, url, payload: method === 'POST' ? { all: true } : undefined })
      expect(response.statusCode).toBe(401)
      expect(response.json()).toMatchObject({ code: 'not_authenticated' })
    }
  })

  it('marks the named notifications read, ignoring another learner ids', async () => {
    const learner = await createUser(t.database)
    const other = await createUser(t.database)
    await notifyEach([item(learner.id, 1), item(learner.id, 2), item(other.id, 3)])
    const [mine1, mine2] = await stored(learner.id)
    const [theirs] = await stored(other.id)

    const response = await as(learner, 'POST', '/api/notifications/read/', { ids: [mine1!.id, theirs!.id, 999_999] })
    expect(response.status).toBe(204)
    expect(response.raw).toBe('')
    const after = await stored(learner.id)
    expect(after.map((row) => row.read_at)).toEqual([t.clock.now(), null])
    expect((await stored(other.id))[0]!.read_at).toBeNull()
    const { body } = await as(learner, 'GET', '/api/notifications/')
    expect(body.unread).toBe(1)
    expect(body.results.map((n: { id: number; read: boolean }) => [n.id, n.read])).toEqual([
      [mine2!.id, false],
      [mine1!.id, true],
    ])

    // Marking again keeps the first time it was read.
    t.clock.advance(MINUTE)
    await as(learner, 'POST', '/api/notifications/read/', { ids: [mine1!.id] })
    expect((await stored(learner.id))[0]!.read_at).toBe(t.clock.now() - MINUTE)
  })

  it('marks all of the learner notifications read, and no one else', async () => {
    const learner = await createUser(t.database)
    const other = await createUser(t.database)
    await notifyEach([item(learner.id, 1), item(learner.id, 2), item(other.id, 3)])
    expect((await as(learner, 'POST', '/api/notifications/read', { all: true })).status).toBe(204)
    expect((await stored(learner.id)).every((row) => row.read_at === t.clock.now())).toBe(true)
    expect((await stored(other.id))[0]!.read_at).toBeNull()
    expect((await as(learner, 'GET', '/api/notifications/')).body.unread).toBe(0)
  })

  it.each([
    ['an empty body', {}],
    ['all: false', { all: false }],
    ['ids not a list', { ids: 3 }],
    ['an empty list', { ids: [] }],
    ['ids that are not ids', { ids: [1, 'two'] }],
    ['a negative id', { ids: [-1] }],
    ['too many ids', { ids: Array.from({ length: 501 }, (_, n) => n + 1) }],
    ['not an object', [1, 2]],
  ])('refuses %s with 400 and marks nothing', async (_label, payload) => {
    const learner = await createUser(t.database)
    await notifyEach([item(learner.id, 1)])
    const { status, body } = await as(learner, 'POST', '/api/notifications/read/', payload)
    expect(status).toBe(400)
    expect(body).toMatchObject({ code: 'validation_error', detail: expect.any(String) })
    expect((await stored(learner.id))[0]!.read_at).toBeNull()
  })
})
