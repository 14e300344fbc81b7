import { picturePath } from '@quiz/contracts'
import { describe, expect, it } from 'vitest'
import { insertBankQuestion } from '../questions/question-revisions.repository'
import { dialects } from '../../test/dialects'
import { bearerFor, createUser } from '../../test/factories'
import { png } from '../../test/fixtures/pictures'
import { testConfig, useTestApp } from '../../test/test-app'
import { createPictureSweeper } from './picture-sweeper'
import { createPicturesService, UNUSED_FOR } from './pictures.service'

const HOUR = 3_600_000
const DAY = 24 * HOUR

describe.each(dialects)('the sweep of unused pictures on %s', (dialect) => {
  const t = useTestApp(dialect)

  const pictures = () => createPicturesService(t)
  async function store(colour: string) {
    const picture = await pictures().store(await png(12, 12, { colour }))
    if (typeof picture === 'string') throw new Error(picture)
    return picture
  }
  const image = (picture: Awaited<ReturnType<typeof store>>) => ({ picture, caption: { en: '', ne: '' } })
  const remaining = async () =>
    (await t.db.selectFrom('pictures').select('hash').execute()).map((row) => picturePath(row.hash)).sort()

  it('deletes pictures unused for 30 days and keeps used and younger ones', async () => {
    // The first is named by nothing.
    const [, onQuestion, onOption, dryRun, expiredDryRun] = await Promise.all(
      ['#100000', '#200000', '#300000', '#400000', '#500000'].map(store),
    )
    await insertBankQuestion(
      t.db,
      {
        text: { en: 'Which map?', ne: '' },
        hint: null,
        topic: '',
        image: image(onQuestion!),
        options: [
          { text: { en: 'This', ne: '' }, is_correct: true, image: image(onOption!) },
          { text: { en: 'That', ne: '' }, is_correct: false, image: null },
        ],
      },
      t.clock.now(),
    )
    const admin = await createUser(t.database, { is_admin: 1 })
    t.clock.advance(UNUSED_FOR - HOUR)
    const young = await store('#600000')
    // Dry runs name their pictures in their rows, as the import stores them.
    for (const [picture, expiresIn] of [
      [dryRun!, 24 * HOUR],
      [expiredDryRun!, 0],
    ] as const) {
      await t.db
        .insertInto('imports')
        .values({
          created_by: admin.id,
          format: 'docx',
          rows: JSON.stringify([{ row: 1, status: 'ok', question: { image: image(picture) } }]),
          created_at: t.clock.now(),
          expires_at: t.clock.now() + expiresIn,
        })
        .execute()
    }

    expect(await pictures().deleteUnused()).toBe(0)
    t.clock.advance(2 * HOUR)
    expect(await pictures().deleteUnused()).toBe(2)
    expect(await remaining()).toEqual([onQuestion!.url, onOption!.url, dryRun!.url, young.url].sort())

    t.clock.advance(DAY)
    expect(await pictures().deleteUnused()).toBe(1)
    expect(await remaining()).toEqual([onQuestion!.url, onOption!.url, young.url].sort())
  })

  it("keeps an institute's logo (docs/decisions/097)", async () => {
    const logo = await store('#700000')
    const hash = /([0-9a-f]{64})\.webp$/.exec(logo.url)![1]!
    await t.db.updateTable('institutes').set({ logo_hash: hash }).where('id', '=', 1).execute()
    t.clock.advance(UNUSED_FOR + DAY)
    expect(await pictures().deleteUnused()).toBe(0)
    expect(await remaining()).toEqual([logo.url])
  })

  it('keeps a picture an old revision still uses after its question moved to another', async () => {
    const headers = await bearerFor(t.tokens, await createUser(t.database, { is_admin: 1 }))
    const body = async (colour: string) => ({
      text: { en: 'Which flag?' },
      image: { picture: `data:image/png;base64,${(await png(9, 9, { colour })).toString('base64')}` },
      options: [
        { text: { en: 'Nepal' }, is_correct: true },
        { text: { en: 'Bhutan' }, is_correct: false },
      ],
    })
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/admin/bank/questions/',
      headers,
      payload: await body('#aa0000'),
    })
    expect(created.statusCode).toBe(201)
    const url = `/api/admin/bank/questions/${created.json().id}/`
    const edited = await t.app.inject({ method: 'PUT', url, headers, payload: await body('#00aa00') })
    expect(edited.statusCode).toBe(200)
    t.clock.advance(UNUSED_FOR + DAY)
    expect(await pictures().deleteUnused()).toBe(0)
    expect(await remaining()).toHaveLength(2)
  })

  it('sweeps at once when started, then at its interval, until stopped', async () => {
    await store('#123456')
    t.clock.advance(UNUSED_FOR + DAY)
    const logged: unknown[] = []
    const sweeper = createPictureSweeper({ config: testConfig({ PICTURE_SWEEP_INTERVAL_MS: '3600000' }) }, pictures(), {
      info: (entry: unknown) => logged.push(entry),
      error: (entry: unknown) => logged.push(entry),
    })
    sweeper.start()
    await expect.poll(async () => (await remaining()).length).toBe(0)
    await sweeper.stop()
    expect(logged).toEqual([{ deleted: 1 }])
  })

  it('does nothing when its interval is 0, as under NODE_ENV=test', async () => {
    await store('#654321')
    t.clock.advance(UNUSED_FOR + DAY)
    const sweeper = createPictureSweeper({ config: t.config }, pictures(), { info: () => {}, error: () => {} })
    sweeper.start()
    await sweeper.stop()
    expect(await remaining()).toHaveLength(1)
  })
})
