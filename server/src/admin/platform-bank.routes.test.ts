import sharp from 'sharp'
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { createUser } from '../../test/factories'
import { questionBody } from '../../test/fixtures/admin.fixtures'
import { onHosts } from '../../test/hosts'
import { useTestApp } from '../../test/test-app'
import { knownMigrationNames } from '../db/migrate'
import { createInstitutesService } from '../institutes/institutes.service'

const PLATFORM = 'quiz.example.np'
const PATHSHALA = 'pathshala.example.np'
const MAIN = 'main.example.np'

// API.md "Institutes: many on one deployment", Banks (docs/decisions/101).
describe.each(dialects)("the platform's bank on %s", (dialect) => {
  const t = useTestApp(dialect, { BASE_DOMAIN: PLATFORM })
  const institutes = () => createInstitutesService({ database: t.database, config: t.config, clock: t.clock })
  const { call, accessOf } = onHosts(t)
  const twoInstitutes = async () => {
    const id = await institutes().create({ slug: 'pathshala', name: { en: 'Pathshala' }, hosts: [PATHSHALA] })
    await sql`insert into institute_hosts (host, institute_id) values (${MAIN}, 1)`.execute(t.db)
    return id
  }
  const question = (text: string, extra: Record<string, unknown> = {}) =>
    questionBody({ text: { en: text, ne: '' }, image: null, ...extra })
  /** A platform admin's token on the platform's address, and an admin's of each institute on its host. */
  const people = async () => {
    const pathshalaId = await twoInstitutes()
    const platform = await accessOf(PLATFORM, await createUser(t.database, { is_platform_admin: 1 }))
    const main = await accessOf(MAIN, await createUser(t.database, { is_admin: 1 }))
    const pathshala = await accessOf(PATHSHALA, await createUser(t.database, { is_admin: 1, institute: pathshalaId }))
    return { platform, main, pathshala }
  }

  it('is written by platform admins as the admin bank, apart from every institute\u2019s bank', async () => {
    const { platform, main } = await people()
    const made = await call(PLATFORM, 'POST', '/api/platform/bank/questions/', platform, {
      ...question('Who wrote Muna Madan?'),
      difficulty: 'easy',
      source: 'PSC 2081',
      topic: 'Literature',
    })
    expect(made.status, JSON.stringify(made.body)).toBe(201)
    expect(made.body).toMatchObject({ source: 'PSC 2081', copied_from: null, update_available: false })
    const id = made.body.id as number
    const changed = await call(PLATFORM, 'PUT', `/api/platform/bank/questions/${id}/`, platform, {
      ...question('Who wrote Muna Madan? (revised)'),
      topic: 'Literature',
    })
    expect(changed.status).toBe(200)
    expect(changed.body.revision_id).not.toBe(made.body.revision_id)
    const list = await call(PLATFORM, 'GET', '/api/platform/bank/questions/?topic=literature', platform)
    expect(list.body).toMatchObject({ count: 1, results: [{ id, text: { en: 'Who wrote Muna Madan? (revised)' } }] })
    expect((await call(PLATFORM, 'GET', `/api/platform/bank/questions/${id}/`, platform)).status).toBe(200)
    expect((await call(PLATFORM, 'GET', '/api/platform/bank/facets/', platform)).body.total).toBe(1)
    // Validation as the admin bank's.
    expect((await call(PLATFORM, 'POST', '/api/platform/bank/questions/', platform, { text: 'x' })).status).toBe(400)

    // Not in an institute's own bank, nor reachable there by id.
    expect((await call(MAIN, 'GET', '/api/admin/bank/questions/', main)).body.count).toBe(0)
    expect((await call(MAIN, 'GET', `/api/admin/bank/questions/${id}/`, main)).status).toBe(404)
    // Not an institute: the host table and the platform's list of institutes do not have it.
    const listed = await call(PLATFORM, 'GET', '/api/platform/institutes/', platform)
    expect(listed.body.count).toBe(2)
    expect(listed.body.results.map((each: { slug: string }) => each.slug)).toEqual(['main', 'pathshala'])
    expect((await call(PLATFORM, 'GET', '/api/platform/institutes/0/', platform)).status).toBe(404)

    expect((await call(PLATFORM, 'DELETE', `/api/platform/bank/questions/${id}/`, platform)).status).toBe(204)
    expect((await call(PLATFORM, 'GET', '/api/platform/bank/questions/', platform)).body.count).toBe(0)
  })

  it("is read and copied by each institute's admins, the copy its own, with updates taken only when asked", async () => {
    const { platform, main, pathshala } = await people()
    const png = await sharp({ create: { width: 30, height: 20, channels: 3, background: '#1f6feb' } })
      .png()
      .toBuffer()
    const made = await call(PLATFORM, 'POST', '/api/platform/bank/questions/', platform, {
      ...question('Capital of Nepal?', {
        image: { picture: `data:image/png;base64,${png.toString('base64')}`, caption: { en: 'Map', ne: '' } },
      }),
      topic: 'Geography',
      source: 'Platform set 1',
      difficulty: 'medium',
    })
    expect(made.status, JSON.stringify(made.body)).toBe(201)
    const sourceId = made.body.id as number

    const listed = await call(MAIN, 'GET', '/api/admin/platform-bank/questions/?topic=geography', main)
    expect(listed.status).toBe(200)
    expect(listed.body).toMatchObject({ count: 1, results: [{ id: sourceId, source: 'Platform set 1' }] })
    expect((await call(MAIN, 'GET', `/api/admin/platform-bank/questions/${sourceId}/`, main)).status).toBe(200)
    expect(
      (await call(PATHSHALA, 'GET', '/api/admin/platform-bank/questions/?page_size=10&page=1', pathshala)).body.count,
    ).toBe(1)

    const copied = await call(MAIN, 'POST', `/api/admin/platform-bank/questions/${sourceId}/copy/`, main)
    expect(copied.status, JSON.stringify(copied.body)).toBe(201)
    expect(copied.body).toMatchObject({
      text: { en: 'Capital of Nepal?' },
      topic: 'Geography',
      source: 'Platform set 1',
      difficulty: 'medium',
      copied_from: { platform_question_id: sourceId, revision: made.body.revision_id },
      update_available: false,
      // The same stored picture: content-addressed, shared.
      image: { picture: { url: made.body.image.picture.url }, caption: { en: 'Map' } },
    })
    expect(copied.body.options.map((option: { is_correct: boolean }) => option.is_correct)).toEqual(
      made.body.options.map((option: { is_correct: boolean }) => option.is_correct),
    )
    const copyId = copied.body.id as number
    // Served on the copying institute's host: the copy is its use of the shared picture (decision 100).
    const pictureUrl = made.body.image.picture.url as string
    const served = await t.app.inject({ method: 'GET', url: pictureUrl, headers: { host: MAIN } })
    expect(served.statusCode).toBe(200)
    expect(copyId).not.toBe(sourceId)

    // In main's bank alone.
    const mainBank = await call(MAIN, 'GET', '/api/admin/bank/questions/', main)
    expect(mainBank.body).toMatchObject({ count: 1, results: [{ id: copyId, update_available: false }] })
    expect((await call(PATHSHALA, 'GET', '/api/admin/bank/questions/', pathshala)).body.count).toBe(0)
    expect((await call(PATHSHALA, 'GET', `/api/admin/bank/questions/${copyId}/`, pathshala)).status).toBe(404)
    // The platform's bank is unchanged by a copy.
    expect((await call(PLATFORM, 'GET', '/api/platform/bank/questions/', platform)).body.count).toBe(1)

    // Nothing to take yet.
    const early = await call(MAIN, 'POST', `/api/admin/bank/questions/${copyId}/update-from-source/`, main)
    expect(early.status).toBe(409)
    expect(early.body).toMatchObject({ code: 'no_update_available' })

    const revised = await call(PLATFORM, 'PUT', `/api/platform/bank/questions/${sourceId}/`, platform, {
      ...question('Capital city of Nepal?'),
      topic: 'Geography',
      source: 'Platform set 1',
    })
    expect(revised.status).toBe(200)
    expect((await call(MAIN, 'GET', `/api/admin/bank/questions/${copyId}/`, main)).body).toMatchObject({
      text: { en: 'Capital of Nepal?' },
      update_available: true,
    })
    expect((await call(MAIN, 'GET', '/api/admin/bank/questions/', main)).body.results[0]).toMatchObject({
      update_available: true,
    })

    const taken = await call(MAIN, 'POST', `/api/admin/bank/questions/${copyId}/update-from-source/`, main)
    expect(taken.status, JSON.stringify(taken.body)).toBe(200)
    expect(taken.body).toMatchObject({
      id: copyId,
      text: { en: 'Capital city of Nepal?' },
      image: null,
      copied_from: { platform_question_id: sourceId, revision: revised.body.revision_id },
      update_available: false,
      // The copy's own details stay.
      difficulty: 'medium',
    })
    expect(taken.body.revision_id).not.toBe(copied.body.revision_id)
    expect((await call(MAIN, 'GET', `/api/admin/bank/questions/${copyId}/`, main)).body.update_available).toBe(false)

    // A source deleted from the platform's bank has nothing more to give.
    await call(PLATFORM, 'PUT', `/api/platform/bank/questions/${sourceId}/`, platform, {
      ...question('Capital city of Nepal? (3)'),
      topic: 'Geography',
    })
    expect((await call(PLATFORM, 'DELETE', `/api/platform/bank/questions/${sourceId}/`, platform)).status).toBe(204)
    const gone = await call(MAIN, 'POST', `/api/admin/bank/questions/${copyId}/update-from-source/`, main)
    expect(gone.status).toBe(409)
    expect(gone.body).toMatchObject({ code: 'source_gone' })
    expect((await call(MAIN, 'GET', `/api/admin/bank/questions/${copyId}/`, main)).body.update_available).toBe(false)
  })

  // Needs tags unique per institute (migration 0044, docs/decisions/100): without it one key is one tag deployment-wide.
  it.skipIf(!knownMigrationNames.includes('0044_per_institute_keys'))(
    'matches a copy\u2019s tags by name in the institute, making those it lacks',
    async () => {
      const { platform, main } = await people()
      const own = await call(MAIN, 'POST', '/api/admin/bank/questions/', main, {
        ...question('Own'),
        topic: 'T',
        tags: ['nepal'],
      })
      expect(own.status).toBe(201)
      const made = await call(PLATFORM, 'POST', '/api/platform/bank/questions/', platform, {
        ...question('Longest river?'),
        topic: 'Geography',
        tags: ['Rivers', 'Nepal'],
      })
      expect(made.body.tags).toEqual(['Rivers', 'Nepal'])
      const copied = await call(MAIN, 'POST', `/api/admin/platform-bank/questions/${made.body.id}/copy/`, main)
      expect(copied.status, JSON.stringify(copied.body)).toBe(201)
      expect(copied.body.tags).toEqual(['Rivers', 'nepal'])
      const facets = await call(MAIN, 'GET', '/api/admin/bank/facets/', main)
      // The copy's "Nepal" is main's "nepal": one tag of two questions.
      expect(facets.body.tags).toHaveLength(2)
      expect(facets.body.tags).toEqual(
        expect.arrayContaining([
          { tag: 'nepal', total: 2 },
          { tag: 'Rivers', total: 1 },
        ]),
      )
    },
  )

  it('refuses everyone else, unknown questions, and taking from a question that is no copy', async () => {
    const { platform, main } = await people()
    const made = await call(PLATFORM, 'POST', '/api/platform/bank/questions/', platform, {
      ...question('Highest peak?'),
      topic: 'Geography',
    })
    const sourceId = made.body.id as number
    const learner = await accessOf(MAIN, await createUser(t.database))

    // Learners and non-admins: no platform bank, no copy, no update.
    expect((await call(MAIN, 'GET', '/api/admin/platform-bank/questions/', learner)).status).toBe(403)
    expect((await call(MAIN, 'POST', `/api/admin/platform-bank/questions/${sourceId}/copy/`, learner)).status).toBe(403)
    expect((await call(MAIN, 'GET', '/api/admin/platform-bank/questions/')).status).toBe(401)
    expect((await call(PLATFORM, 'GET', '/api/platform/bank/questions/', learner)).status).toBe(401)
    // The platform's bank's own routes: not on an institute's host, nor for an institute's admin.
    for (const access of [platform, main, undefined]) {
      expect((await call(MAIN, 'GET', '/api/platform/bank/questions/', access)).status).toBe(404)
      expect((await call(PATHSHALA, 'POST', '/api/platform/bank/questions/', access, question('x'))).status).toBe(404)
    }
    // Nor the institutes' routes on the platform's address.
    expect((await call(PLATFORM, 'GET', '/api/admin/platform-bank/questions/', platform)).status).toBe(404)

    expect((await call(MAIN, 'POST', '/api/admin/platform-bank/questions/999999/copy/', main)).status).toBe(404)
    expect((await call(MAIN, 'GET', '/api/admin/platform-bank/questions/999999/', main)).status).toBe(404)

    const own = await call(MAIN, 'POST', '/api/admin/bank/questions/', main, { ...question('Own'), topic: 'Mine' })
    expect(own.body).toMatchObject({ copied_from: null, update_available: false })
    const notACopy = await call(MAIN, 'POST', `/api/admin/bank/questions/${own.body.id}/update-from-source/`, main)
    expect(notACopy.status).toBe(409)
    expect(notACopy.body).toMatchObject({ code: 'not_a_copy' })
    // An own question is not a platform one to copy, nor a platform question one of main's.
    expect((await call(MAIN, 'POST', `/api/admin/platform-bank/questions/${own.body.id}/copy/`, main)).status).toBe(404)
    expect((await call(MAIN, 'POST', `/api/admin/bank/questions/${sourceId}/update-from-source/`, main)).status).toBe(
      404,
    )
  })

  it('leaves a lone institute as it was: its bank its own, the platform\u2019s written only with several', async () => {
    const access = await accessOf('localhost', await createUser(t.database, { is_platform_admin: 1 }))
    const admin = await accessOf('localhost', await createUser(t.database, { is_admin: 1 }))
    const listed = await call('localhost', 'GET', '/api/platform/institutes/', access)
    expect(listed.body).toMatchObject({ count: 1, results: [{ slug: 'main' }] })
    const refused = await call('localhost', 'POST', '/api/platform/bank/questions/', access, {
      ...question('Too soon'),
      topic: 'T',
    })
    expect(refused.status).toBe(409)
    expect(refused.body).toMatchObject({ code: 'platform_bank_needs_institutes' })
    expect((await call('localhost', 'GET', '/api/platform/bank/questions/', access)).body.count).toBe(0)
    const read = await call('localhost', 'GET', '/api/admin/platform-bank/questions/', admin)
    expect(read.status, JSON.stringify(read.body)).toBe(200)
    expect(read.body.count).toBe(0)
    const own = await call('localhost', 'POST', '/api/admin/bank/questions/', admin, { ...question('Own'), topic: 'T' })
    expect(own.status).toBe(201)
    expect((await call('anything.example.com', 'GET', '/api/admin/bank/questions/', admin)).body.count).toBe(1)
  })
})
