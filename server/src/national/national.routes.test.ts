import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { createUser } from '../../test/factories'
import { questionBody } from '../../test/fixtures/admin.fixtures'
import { storedOptionIds } from '../../test/learner-api'
import { mockEnderOn } from '../../test/mock-ender'
import { onHosts } from '../../test/hosts'
import { useTestApp } from '../../test/test-app'
import { createInstitutesService } from '../institutes/institutes.service'

const PLATFORM = 'quiz.example.np'
const MAIN = 'main.example.np'
const PATHSHALA = 'pathshala.example.np'
const THIRD = 'third.example.np'
const MINUTE = 60_000
const GRACE = 2 * MINUTE

// API.md "Institutes: many on one deployment", National mocks (docs/decisions/102).
describe.each(dialects)('national mocks on %s', (dialect) => {
  const t = useTestApp(dialect, { BASE_DOMAIN: PLATFORM })
  const institutes = () => createInstitutesService({ database: t.database, config: t.config, clock: t.clock })
  const { call, accessOf } = onHosts(t)

  /** Three institutes (main, Pathshala, a third), their admins and learners, and a platform admin. */
  async function world() {
    const pathshala = await institutes().create({ slug: 'pathshala', name: { en: 'Pathshala' }, hosts: [PATHSHALA] })
    const third = await institutes().create({ slug: 'third', name: { en: 'Third' }, hosts: [THIRD] })
    await sql`insert into institute_hosts (host, institute_id) values (${MAIN}, 1)`.execute(t.db)
    const user = (host: string, fields: Record<string, unknown>) =>
      createUser(t.database, fields).then((made) => accessOf(host, made).then((access) => ({ ...made, access })))
    return {
      platform: await user(PLATFORM, { is_platform_admin: 1 }),
      mainAdmin: await user(MAIN, { is_admin: 1 }),
      pathshalaAdmin: await user(PATHSHALA, { is_admin: 1, institute: pathshala }),
      thirdAdmin: await user(THIRD, { is_admin: 1, institute: third }),
      m1: await user(MAIN, {}),
      m2: await user(MAIN, {}),
      p1: await user(PATHSHALA, { institute: pathshala }),
      t1: await user(THIRD, { institute: third }),
    }
  }

  async function platformQuestions(access: string) {
    const ids: number[] = []
    for (const text of ['National question one', 'National question two']) {
      const made = await call(PLATFORM, 'POST', '/api/platform/bank/questions/', access, {
        ...questionBody({ text: { en: text, ne: '' }, image: null }),
        topic: 'Secret',
      })
      expect(made.status, JSON.stringify(made.body)).toBe(201)
      ids.push(made.body.id as number)
    }
    return ids
  }

  const mockBody = (questionIds: number[], startsAt: number) => ({
    title: { en: 'National mock 1' },
    duration_minutes: 30,
    live: { starts_at: new Date(startsAt).toISOString(), join_minutes: 5 },
    sections: [{ items: questionIds.map((question_id) => ({ question_id })) }],
  })

  /** The quiz's copied questions, in paper order, with their option ids (option A right). */
  async function paperOf(quizId: number) {
    const rows = await t.db
      .selectFrom('paper_items as i')
      .innerJoin('paper_sections as s', 's.id', 'i.section_id')
      .select('i.question_id')
      .where('s.quiz_id', '=', quizId)
      .orderBy('s.position')
      .orderBy('i.position')
      .execute()
    const ids = rows.map((row) => row.question_id!)
    return { ids, options: await Promise.all(ids.map((id) => storedOptionIds(t.db, id))) }
  }

  it('is sat by two institutes on their own hosts and ranked together under pseudonyms', async () => {
    const w = await world()
    const questions = await platformQuestions(w.platform.access)
    const startsAt = t.clock.now() + 10 * MINUTE
    const ends = startsAt + 30 * MINUTE

    const unknown = await call(
      PLATFORM,
      'POST',
      '/api/platform/national-mocks/',
      w.platform.access,
      mockBody([questions[0]!, 999_999], startsAt),
    )
    expect(unknown.status).toBe(400)
    expect(Object.keys(unknown.body.errors)).toEqual(['sections.0.items.1.question_id'])
    const late = await call(PLATFORM, 'POST', '/api/platform/national-mocks/', w.platform.access, {
      ...mockBody(questions, startsAt),
      live: { starts_at: new Date(startsAt).toISOString(), join_minutes: 40 },
    })
    expect(late.status).toBe(400)
    expect(Object.keys(late.body.errors)).toEqual(['live.join_minutes'])
    const made = await call(
      PLATFORM,
      'POST',
      '/api/platform/national-mocks/',
      w.platform.access,
      mockBody(questions, startsAt),
    )
    expect(made.status, JSON.stringify(made.body)).toBe(201)
    const id = made.body.id as number
    expect(made.body).toMatchObject({ question_count: 2, institutes: [] })
    // In the platform's trail, not an institute's.
    const audit = await call(PLATFORM, 'GET', '/api/platform/audit/', w.platform.access)
    expect(audit.body.results).toMatchObject([
      { action: 'create', entity_type: 'national_mock', entity_id: id, entity_label: 'National mock 1' },
    ])

    const joined = await call(MAIN, 'POST', `/api/admin/national-mocks/${id}/join/`, w.mainAdmin.access)
    expect(joined.status, JSON.stringify(joined.body)).toBe(201)
    expect((await call(MAIN, 'POST', `/api/admin/national-mocks/${id}/join/`, w.mainAdmin.access)).status).toBe(200)
    const pJoined = await call(PATHSHALA, 'POST', `/api/admin/national-mocks/${id}/join/`, w.pathshalaAdmin.access)
    expect(pJoined.status).toBe(201)
    const mainQuiz = joined.body.quiz_id as number
    const pathshalaQuiz = pJoined.body.quiz_id as number

    const one = await call(PLATFORM, 'GET', `/api/platform/national-mocks/${id}/`, w.platform.access)
    expect(one.body.institutes.map((i: { slug: string }) => i.slug)).toEqual(['main', 'pathshala'])
    expect((await call(PLATFORM, 'GET', '/api/platform/national-mocks/', w.platform.access)).body.items).toHaveLength(1)
    expect((await call(THIRD, 'GET', '/api/admin/national-mocks/', w.thirdAdmin.access)).body.items).toMatchObject([
      { id, taking_part: false, quiz_id: null },
    ])
    expect((await call(MAIN, 'GET', '/api/national-mocks/', w.m1.access)).body.items).toMatchObject([
      { id, quiz_id: mainQuiz },
    ])
    expect((await call(THIRD, 'GET', '/api/national-mocks/', w.t1.access)).body.items).toEqual([])
    // The learner's quiz list shows the institute's copy as a live mock.
    const listed = (await call(MAIN, 'GET', '/api/quizzes/', w.m1.access)).body as { id: number; live: unknown }[]
    expect(listed.find((quiz) => quiz.id === mainQuiz)?.live).toMatchObject({ status: 'upcoming' })

    // The institute's admins cannot read the paper before the end, nor ever change it.
    const main = await paperOf(mainQuiz)
    expect((await call(MAIN, 'GET', `/api/admin/quizzes/${mainQuiz}/`, w.mainAdmin.access)).status).toBe(404)
    expect((await call(MAIN, 'GET', `/api/admin/bank/questions/${main.ids[0]}/`, w.mainAdmin.access)).status).toBe(404)
    expect((await call(MAIN, 'GET', '/api/admin/bank/questions/', w.mainAdmin.access)).body.count).toBe(0)
    const facets = await call(MAIN, 'GET', '/api/admin/bank/facets/', w.mainAdmin.access)
    expect(JSON.stringify(facets.body)).not.toContain('Secret')
    const patch = await call(MAIN, 'PATCH', `/api/admin/quizzes/${mainQuiz}/`, w.mainAdmin.access, {
      title: { en: 'x' },
    })
    expect([patch.status, patch.body.code]).toEqual([409, 'national_mock_locked'])
    // Nor decide its key: that would re-score one institute's learners on the national board.
    const revision = await t.db
      .selectFrom('questions')
      .select('revision_id')
      .where('id', '=', main.ids[0]!)
      .executeTakeFirstOrThrow()
    const keyDecision = {
      revision_id: revision.revision_id!,
      action: 'drop',
      drop_policy: 'exclude',
      note: 'x',
      dry_run: false,
    }
    const decided = await call(
      MAIN,
      'POST',
      `/api/admin/questions/${main.ids[0]}/key/`,
      w.mainAdmin.access,
      keyDecision,
    )
    expect([decided.status, decided.body.code]).toEqual([409, 'national_mock_locked'])

    // Before the start: an upcoming board; a learner of an institute not taking part finds no board.
    expect((await call(MAIN, 'GET', `/api/national-mocks/${id}/leaderboard/`, w.m1.access)).body).toEqual({
      status: 'upcoming',
      participants: 0,
      top: [],
      me: null,
    })
    expect((await call(THIRD, 'GET', `/api/national-mocks/${id}/leaderboard/`, w.t1.access)).status).toBe(404)
    expect((await call(MAIN, 'GET', '/api/national-mocks/999999/leaderboard/', w.m1.access)).status).toBe(404)
    // The platform's admins read the national board on the platform's address (WEB.md "Institutes").
    const platformBoard = `/api/platform/national-mocks/${id}/leaderboard/`
    expect((await call(PLATFORM, 'GET', platformBoard, w.platform.access)).body).toEqual({
      status: 'upcoming',
      participants: 0,
      top: [],
      me: null,
    })
    expect(
      (await call(PLATFORM, 'GET', '/api/platform/national-mocks/999999/leaderboard/', w.platform.access)).status,
    ).toBe(404)
    expect((await call(MAIN, 'GET', platformBoard, w.mainAdmin.access)).status).toBe(404)

    // From the start neither joining nor leaving.
    t.clock.set(startsAt)
    const leave = await call(MAIN, 'DELETE', `/api/admin/national-mocks/${id}/join/`, w.mainAdmin.access)
    expect([leave.status, leave.body?.code]).toEqual([409, 'national_mock_started'])
    expect((await call(THIRD, 'POST', `/api/admin/national-mocks/${id}/join/`, w.thirdAdmin.access)).status).toBe(409)

    const sit = async (host: string, quizId: number, access: string, letters: string) => {
      const paper = await paperOf(quizId)
      expect((await call(host, 'GET', `/api/quizzes/${quizId}/`, access)).status).toBe(200)
      const answers = Object.fromEntries(
        paper.ids.map((q, i) => [q, letters[i] === '-' ? null : paper.options[i]![letters[i] === 'A' ? 0 : 1]!]),
      )
      const submitted = await call(host, 'POST', `/api/quizzes/${quizId}/submit/`, access, { answers })
      expect(submitted.status, JSON.stringify(submitted.body)).toBe(200)
    }
    await sit(MAIN, mainQuiz, w.m1.access, 'AA')
    await sit(MAIN, mainQuiz, w.m2.access, 'A-')
    await sit(PATHSHALA, pathshalaQuiz, w.p1.access, 'AA')
    expect((await call(PATHSHALA, 'GET', `/api/national-mocks/${id}/leaderboard/`, w.p1.access)).body).toEqual({
      status: 'running',
      participants: 3,
      top: [],
      me: null,
    })
    expect((await call(PLATFORM, 'GET', platformBoard, w.platform.access)).body).toEqual({
      status: 'running',
      participants: 3,
      top: [],
      me: null,
    })

    t.clock.set(ends + GRACE + 1)
    expect(await mockEnderOn(t.appDatabase, t.clock).endDue()).toBe(2)
    // Access tokens live shorter than the mock: sign in again.
    for (const [host, who] of [
      [MAIN, w.m2],
      [PATHSHALA, w.p1],
      [MAIN, w.mainAdmin],
    ] as const)
      who.access = await accessOf(host, who)
    const afterEnd = await call(
      MAIN,
      'POST',
      `/api/admin/questions/${main.ids[0]}/key/`,
      w.mainAdmin.access,
      keyDecision,
    )
    expect([afterEnd.status, afterEnd.body.code]).toEqual([409, 'national_mock_locked'])
    const board = await call(MAIN, 'GET', `/api/national-mocks/${id}/leaderboard/`, w.m2.access)
    expect(board.status, JSON.stringify(board.body)).toBe(200)
    expect(board.body).toMatchObject({ status: 'final', participants: 3, me: { rank: 3, percentile: 0, score: 1 } })
    const mainName = (
      await t.db.selectFrom('institutes').select('name_en').where('id', '=', 1).executeTakeFirstOrThrow()
    ).name_en
    const top = board.body.top as { rank: number; name: string; score: number }[]
    expect(top.map((entry) => [entry.rank, entry.score])).toEqual([
      [1, 2],
      [1, 2],
      [3, 1],
    ])
    const names = top.map((entry) => entry.name)
    for (const name of names) expect(name).toMatch(/^(Pathshala|.+) · [A-Z0-9]{6}$/)
    expect(names.filter((name) => name.startsWith('Pathshala · '))).toHaveLength(1)
    expect(names.filter((name) => name.startsWith(`${mainName} · `))).toHaveLength(2)
    expect(names.join()).not.toContain(w.m1.username)
    // Stable per learner and mock.
    const again = await call(PATHSHALA, 'GET', `/api/national-mocks/${id}/leaderboard/`, w.p1.access)
    expect(again.body.top.map((entry: { name: string }) => entry.name)).toEqual(names)
    expect(again.body.me).toEqual({ rank: 1, percentile: 50, score: 2 })
    // The platform's board: the same top, and no `me` (the platform sits no mock).
    w.platform.access = await accessOf(PLATFORM, w.platform)
    const onPlatform = await call(PLATFORM, 'GET', platformBoard, w.platform.access)
    expect(onPlatform.body).toEqual({ status: 'final', participants: 3, top: board.body.top, me: null })

    // The institute's own board names its learners and gives each the national rank beside it.
    const own = await call(MAIN, 'GET', `/api/quizzes/${mainQuiz}/leaderboard/`, w.m2.access)
    expect(own.body).toMatchObject({
      participants: 2,
      top: [
        { rank: 1, score: 2, national_rank: 1 },
        { rank: 2, score: 1, national_rank: 3 },
      ],
      me: { rank: 2, score: 1, national_rank: 3 },
    })

    // After the common end the admin reads the copy, and still cannot change it.
    expect((await call(MAIN, 'GET', `/api/admin/quizzes/${mainQuiz}/`, w.mainAdmin.access)).status).toBe(200)
    expect((await call(MAIN, 'DELETE', `/api/admin/quizzes/${mainQuiz}/`, w.mainAdmin.access)).status).toBe(409)
  })

  it('is the platform admins’ to make, and an institute leaves only before the start', async () => {
    const w = await world()
    const questions = await platformQuestions(w.platform.access)
    const startsAt = t.clock.now() + 10 * MINUTE
    const body = mockBody(questions, startsAt)
    expect((await call(MAIN, 'POST', '/api/platform/national-mocks/', w.mainAdmin.access, body)).status).toBe(404)
    expect([401, 403, 404]).toContain(
      (await call(PLATFORM, 'POST', '/api/platform/national-mocks/', w.mainAdmin.access, body)).status,
    )
    expect((await call(MAIN, 'GET', '/api/platform/national-mocks/', w.mainAdmin.access)).status).toBe(404)
    const made = await call(PLATFORM, 'POST', '/api/platform/national-mocks/', w.platform.access, body)
    const id = made.body.id as number
    expect((await call(PLATFORM, 'GET', '/api/platform/national-mocks/999999/', w.platform.access)).status).toBe(404)
    expect((await call(MAIN, 'POST', '/api/admin/national-mocks/999999/join/', w.mainAdmin.access)).status).toBe(404)
    expect((await call(MAIN, 'POST', `/api/admin/national-mocks/${id}/join/`, w.m1.access)).status).toBe(403)

    const joined = await call(MAIN, 'POST', `/api/admin/national-mocks/${id}/join/`, w.mainAdmin.access)
    expect(joined.status).toBe(201)
    expect((await call(MAIN, 'DELETE', `/api/admin/national-mocks/${id}/join/`, w.mainAdmin.access)).status).toBe(204)
    expect((await call(MAIN, 'GET', '/api/national-mocks/', w.m1.access)).body.items).toEqual([])
    const listed = (await call(MAIN, 'GET', '/api/quizzes/', w.m1.access)).body as { id: number }[]
    expect(listed.map((quiz) => quiz.id)).not.toContain(joined.body.quiz_id)
    expect((await call(MAIN, 'GET', `/api/national-mocks/${id}/leaderboard/`, w.m1.access)).status).toBe(404)
    // Leaving when not taking part is done already.
    expect((await call(MAIN, 'DELETE', `/api/admin/national-mocks/${id}/join/`, w.mainAdmin.access)).status).toBe(204)
  })
})
