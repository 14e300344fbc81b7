import type { UserRow } from '../db/schema'
import { describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { bearerFor, createUser, paidAccessUntil, type TokenRoles } from '../../test/factories'
import { openQuiz, storedOptionIds } from '../../test/learner-api'
import { useTestApp } from '../../test/test-app'

const MINUTE = 60_000

// Figures straight from API.md's definitions, written independently of the implementation (floating point, plain
// loops), so the test can catch a mistake in its arithmetic.
const meanOf = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length
const sampleVariance = (values: number[]) => {
  const m = meanOf(values)
  return values.reduce((sum, v) => sum + (v - m) ** 2, 0) / (values.length - 1)
}
const pearson = (xs: number[], ys: number[]) => {
  const mx = meanOf(xs)
  const my = meanOf(ys)
  let sxy = 0
  let sxx = 0
  let syy = 0
  xs.forEach((x, i) => {
    sxy += (x - mx) * (ys[i]! - my)
    sxx += (x - mx) ** 2
    syy += (ys[i]! - my) ** 2
  })
  return sxy / Math.sqrt(sxx * syy)
}

describe.each(dialects)('institutions API on %s', (dialect) => {
  const t = useTestApp(dialect)

  const headersOf = (user: TokenRoles) => bearerFor(t.tokens, user)
  const asAdmin = async () => headersOf(await createUser(t.database, { is_admin: 1 }))

  async function call(headers: Record<string, string>, method: string, url: string, payload?: unknown) {
    const response = await t.app.inject({ method: method as 'GET', url, headers, ...(payload ? { payload } : {}) })
    return response
  }

  /** A real attempt through the learner API: start, `minutes` pass, submit these answers. */
  async function take(user: UserRow, quizId: number, answers: Record<number, number | null>, minutes = 5) {
    const headers = await headersOf(user)
    const started = await call(headers, 'GET', `/api/quizzes/${quizId}/`)
    expect(started.statusCode).toBe(200)
    t.clock.advance(minutes * MINUTE)
    const submitted = await call(headers, 'POST', `/api/quizzes/${quizId}/submit/`, { answers })
    expect(submitted.statusCode).toBe(200)
    return submitted.json().attempt_id as number
  }

  const activeQuiz = (questionCount = 4, overrides = {}) => openQuiz(t, overrides, { questionCount })

  describe('who may call', () => {
    const routes: [string, string, unknown?][] = [
      ['GET', '/api/admin/quizzes/1/attempts/'],
      ['GET', '/api/admin/quizzes/1/attempts.csv'],
      ['GET', '/api/admin/quizzes/1/statistics/'],
      ['GET', '/api/admin/users/'],
      ['PATCH', '/api/admin/users/1/', { extra_time_percent: 50 }],
    ]

    it.each(routes)('answers 401 to %s %s without a token', async (method, url, payload) => {
      await activeQuiz()
      const response = await call({}, method, url, payload)
      expect(response.statusCode).toBe(401)
      expect(response.json().code).toBe('not_authenticated')
    })

    it.each(routes)('answers 403 to a learner on %s %s and changes nothing', async (method, url, payload) => {
      const learner = await createUser(t.database)
      await activeQuiz()
      const response = await call(await headersOf(learner), method, url, payload)
      expect(response.statusCode).toBe(403)
      expect(response.json()).toMatchObject({ code: 'permission_denied', detail: expect.any(String) })
      const row = await t.db.selectFrom('users').selectAll().where('id', '=', learner.id).executeTakeFirstOrThrow()
      expect(row.extra_time_percent).toBe(0)
    })

    it.each(routes.slice(0, 3))('answers 404 to %s %s for a quiz that does not exist', async (method, url) => {
      const response = await call(await asAdmin(), method, url.replace('/1/', '/999/'))
      expect(response.statusCode).toBe(404)
      expect(response.json().code).toBe('not_found')
    })
  })

  describe('GET /api/admin/quizzes/{id}/attempts/', () => {
    async function fixture() {
      const { quiz, questionIds: q, correctOptionIds: right, wrongOptionIds: wrong } = await activeQuiz(3)
      const [sita, ram, hari] = [
        await createUser(t.database, { username: 'sita', full_name: 'Sita Rai' }),
        await createUser(t.database, { username: 'ram' }),
        await createUser(t.database, { username: 'hari' }),
      ]
      const ids = {
        sita1: await take(sita, quiz.id, { [q[0]!]: right[0]!, [q[1]!]: wrong[1]! }), // 0.8
        ram1: await take(ram, quiz.id, { [q[0]!]: right[0]!, [q[1]!]: right[1]!, [q[2]!]: right[2]! }, 7), // 3
        sita2: await take(sita, quiz.id, { [q[0]!]: right[0]!, [q[1]!]: right[1]!, [q[2]!]: right[2]! }), // 3, later
        hari1: await take(hari, quiz.id, {}), // 0
        ram2: await take(ram, quiz.id, { [q[0]!]: wrong[0]! }), // -0.2
      }
      // An attempt in progress is not finished: never listed.
      await call(await headersOf(hari), 'GET', `/api/quizzes/${quiz.id}/`)
      return { quiz, ids, sita, ram }
    }

    const list = async (quizId: number, query = '') =>
      call(await asAdmin(), 'GET', `/api/admin/quizzes/${quizId}/attempts/${query}`)

    it('lists every finished attempt, highest score first, then earliest finished', async () => {
      const { quiz, ids, ram } = await fixture()
      const response = await list(quiz.id)
      expect(response.statusCode).toBe(200)
      const body = response.json()
      expect(body.count).toBe(5)
      expect(body.results.map((r: { attempt_id: number }) => r.attempt_id)).toEqual([
        ids.ram1,
        ids.sita2,
        ids.sita1,
        ids.hari1,
        ids.ram2,
      ])
      expect(body.results[0]).toEqual({
        attempt_id: ids.ram1,
        user: { id: ram.id, username: 'ram', full_name: '' },
        attempt_number: 1,
        score: 3,
        correct: 3,
        incorrect: 0,
        unanswered: 0,
        started_at: expect.stringMatching(/Z$/),
        completed_timestamp: expect.stringMatching(/Z$/),
        duration_seconds: 420,
        late: false,
        mode: 'online',
      })
      expect(body.results[2]).toMatchObject({ score: 0.8, correct: 1, incorrect: 1, unanswered: 1 })
      expect(body.results[4]).toMatchObject({ score: -0.2, attempt_number: 2 })
    })

    it("keeps each learner's first attempt with which=first and best with which=best", async () => {
      const { quiz, ids } = await fixture()
      const ids_ = async (which: string) =>
        (await list(quiz.id, `?which=${which}`)).json().results.map((r: { attempt_id: number }) => r.attempt_id)
      expect(await ids_('first')).toEqual([ids.ram1, ids.sita1, ids.hari1])
      expect(await ids_('best')).toEqual([ids.ram1, ids.sita2, ids.hari1])
    })

    it('pages with page and page_size; count is the total', async () => {
      const { quiz, ids } = await fixture()
      const second = (await list(quiz.id, '?page=2&page_size=2')).json()
      expect(second.count).toBe(5)
      expect(second.results.map((r: { attempt_id: number }) => r.attempt_id)).toEqual([ids.sita1, ids.hari1])
      const past = (await list(quiz.id, '?page=9&page_size=2')).json()
      expect(past).toEqual({ count: 5, results: [] })
    })

    it.each(['?page_size=0', '?page_size=501', '?page=0', '?which=worst', '?page_size=abc'])(
      'answers 400 to %s',
      async (query) => {
        const { quiz } = await activeQuiz()
        const response = await list(quiz.id, query)
        expect(response.statusCode).toBe(400)
        expect(response.json().code).toBe('validation_error')
      },
    )

    it('answers an empty page for a quiz without finished attempts', async () => {
      const { quiz } = await activeQuiz()
      expect((await list(quiz.id)).json()).toEqual({ count: 0, results: [] })
    })
  })

  describe('GET /api/admin/quizzes/{id}/attempts.csv', () => {
    it('writes the exact bytes: BOM, header, RFC 4180 quoting, Devanagari, neutralised formulas, authored letters', async () => {
      // Shuffled options: the letters must still be those of the authored order.
      const { quiz, questionIds: q } = await activeQuiz(2, { shuffle_options: 1, shuffle_questions: 1 })
      const [o1, o2] = [await storedOptionIds(t.db, q[0]!), await storedOptionIds(t.db, q[1]!)]
      const formula = await createUser(t.database, {
        username: 'eve',
        full_name: '=HYPERLINK("http://x","click")',
        phone_number: '9800000001',
      })
      const quoted = await createUser(t.database, {
        username: 'gita',
        full_name: 'Sharma, "Gita"\nline two',
        phone_number: '9800000002',
      })
      const nepali = await createUser(t.database, {
        username: 'sita',
        full_name: 'सीता राई',
        phone_number: '9800000003',
      })
      t.clock.set(Date.parse('2026-11-22T07:00:00.000Z'))
      const a1 = await take(nepali, quiz.id, { [q[0]!]: o1[0]!, [q[1]!]: o2[0]! }, 10) // 2 right
      const a2 = await take(quoted, quiz.id, { [q[0]!]: o1[2]!, [q[1]!]: o2[3]! }, 3) // 2 wrong: -0.4
      const a3 = await take(formula, quiz.id, { [q[1]!]: o2[1]! }, 1) // 1 wrong: -0.2

      const response = await call(await asAdmin(), 'GET', `/api/admin/quizzes/${quiz.id}/attempts.csv`)
      expect(response.statusCode).toBe(200)
      expect(response.headers['content-type']).toBe('text/csv; charset=utf-8')
      expect(response.headers['content-disposition']).toBe(`attachment; filename="quiz-${quiz.id}-attempts-all.csv"`)
      const expected =
        '\uFEFF' +
        'attempt_id,username,full_name,phone_number,attempt_number,score,correct,incorrect,unanswered,started_at,completed_at,duration_seconds,late,mode,Q1,Q2\r\n' +
        `${a1},sita,सीता राई,9800000003,1,2,2,0,0,2026-11-22T07:00:00.000Z,2026-11-22T07:10:00.000Z,600,false,online,A,A\r\n` +
        `${a3},eve,"'=HYPERLINK(""http://x"",""click"")",9800000001,1,-0.2,0,1,1,2026-11-22T07:13:00.000Z,2026-11-22T07:14:00.000Z,60,false,online,,B\r\n` +
        `${a2},gita,"Sharma, ""Gita""\nline two",9800000002,1,-0.4,0,2,0,2026-11-22T07:10:00.000Z,2026-11-22T07:13:00.000Z,180,false,online,C,D\r\n`
      expect(response.rawPayload.equals(Buffer.from(expected, 'utf8'))).toBe(true)
      expect(response.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]))
    })

    it('neutralises +, -, @ and tab at the start of a name, and follows which=', async () => {
      const { quiz, questionIds: q, correctOptionIds: right } = await activeQuiz(1)
      const names = ['+1', '-x', '@SUM(A1)', '\tcmd']
      for (const name of names) await take(await createUser(t.database, { full_name: name }), quiz.id, {})
      const learner = await createUser(t.database, { full_name: 'twice' })
      await take(learner, quiz.id, {})
      await take(learner, quiz.id, { [q[0]!]: right[0]! })
      const admin = await asAdmin()
      const rows = (which: string) =>
        call(admin, 'GET', `/api/admin/quizzes/${quiz.id}/attempts.csv?which=${which}`).then((r) =>
          r.body.replace('\uFEFF', '').trim().split('\r\n').slice(1),
        )
      const all = await rows('all')
      expect(all).toHaveLength(6)
      expect(all.map((line) => line.split(',')[2])).toEqual(['twice', "'+1", "'-x", "'@SUM(A1)", "'\tcmd", 'twice'])
      expect(all[0]!.split(',')[5]).toBe('1')
      expect(await rows('first')).toHaveLength(5)
      expect((await rows('best'))[0]!.split(',').slice(4, 6)).toEqual(['2', '1'])
    })
  })

  describe('GET /api/admin/quizzes/{id}/statistics/', () => {
    const stats = async (quizId: number, which = 'first') =>
      (await call(await asAdmin(), 'GET', `/api/admin/quizzes/${quizId}/statistics/?which=${which}`)).json()

    it('computes the figures of API.md on a fixture, from the definitions', async () => {
      const { quiz, questionIds: q, correctOptionIds: right, wrongOptionIds: wrong } = await activeQuiz(4)
      // Rows are attempts, columns questions: 'R' right, 'W' wrong (option B), '-' unanswered.
      const matrix = ['RRRR', 'RRRW', 'RRW-', 'RW--', 'W-RR', 'RRRR', '-W-W', 'RRWR']
      for (const line of matrix) {
        const answers: Record<number, number> = {}
        ;[...line].forEach((cell, j) => {
          if (cell === 'R') answers[q[j]!] = right[j]!
          if (cell === 'W') answers[q[j]!] = wrong[j]!
        })
        await take(await createUser(t.database), quiz.id, answers)
      }
      const x = matrix.map((line) => [...line].map((cell): number => (cell === 'R' ? 1 : cell === 'W' ? -0.2 : 0)))
      const totals = x.map((row) => row.reduce((s, v) => s + v, 0))
      const n = totals.length
      const k = 4
      const sorted = [...totals].sort((a, b) => a - b)
      const sd = Math.sqrt(sampleVariance(totals))
      const alpha =
        (k / (k - 1)) *
        (1 - [0, 1, 2, 3].reduce((s, j) => s + sampleVariance(x.map((row) => row[j]!)), 0) / sampleVariance(totals))

      const body = await stats(quiz.id)
      expect(body.attempts).toBe(n)
      expect(body.mean).toBeCloseTo(meanOf(totals), 2)
      expect(body.median).toBeCloseTo((sorted[3]! + sorted[4]!) / 2, 2)
      expect(body.standard_deviation).toBeCloseTo(sd, 2)
      expect(body.highest).toBeCloseTo(Math.max(...totals), 2)
      expect(body.lowest).toBeCloseTo(Math.min(...totals), 2)
      expect(body.cronbach_alpha).toBeCloseTo(alpha, 4)
      expect(body.standard_error).toBeCloseTo(sd * Math.sqrt(1 - alpha), 2)
      expect(body.scores).toEqual(sorted.map((v) => Math.round(v * 100) / 100))

      for (let j = 0; j < k; j++) {
        const item = x.map((row) => row[j]!)
        const rest = x.map((row, a) => totals[a]! - row[j]!)
        const question = body.questions[j]
        const facility = matrix.filter((line) => line[j] === 'R').length / n
        expect(question).toMatchObject({ id: q[j], number: j + 1, topic: 'general', other: 0 })
        expect(question.facility).toBeCloseTo(facility, 4)
        expect(question.discrimination).toBeCloseTo(pearson(item, rest), 4)
        expect(question.unanswered).toBe(matrix.filter((line) => line[j] === '-').length)
        expect(question.options.map((o: { count: number }) => o.count)).toEqual([
          matrix.filter((line) => line[j] === 'R').length,
          matrix.filter((line) => line[j] === 'W').length,
          0,
          0,
        ])
        const expectedFlags = [
          ...(facility > 0.9 ? ['too_easy'] : []),
          ...(facility < 0.2 ? ['too_hard'] : []),
          ...(pearson(item, rest) < 0.2 ? ['poor_discrimination'] : []),
        ]
        expect(question.flags).toEqual(expectedFlags)
      }
    })

    it('answers nulls, never an error, for a quiz with no attempts', async () => {
      const { quiz } = await activeQuiz(3)
      const body = await stats(quiz.id)
      expect(body).toMatchObject({
        attempts: 0,
        mean: null,
        median: null,
        standard_deviation: null,
        highest: null,
        lowest: null,
        cronbach_alpha: null,
        standard_error: null,
        scores: [],
      })
      expect(body.questions[0]).toMatchObject({ facility: null, discrimination: null, unanswered: 0, flags: [] })
    })

    it('answers a mean but no spread for one attempt', async () => {
      const { quiz, questionIds: q, correctOptionIds: right } = await activeQuiz(3)
      await take(await createUser(t.database), quiz.id, { [q[0]!]: right[0]! })
      const body = await stats(quiz.id)
      expect(body).toMatchObject({
        attempts: 1,
        mean: 1,
        median: 1,
        highest: 1,
        lowest: 1,
        standard_deviation: null,
        cronbach_alpha: null,
        standard_error: null,
      })
      expect(body.questions.map((x: { facility: number }) => x.facility)).toEqual([1, 0, 0])
      expect(body.questions[0]).toMatchObject({ discrimination: null, flags: ['too_easy'] })
      expect(body.questions[1]).toMatchObject({ discrimination: null, flags: ['too_hard'] })
    })

    it('answers a zero deviation and null alpha when every score is equal', async () => {
      const { quiz, questionIds: q, correctOptionIds: right } = await activeQuiz(2)
      for (let i = 0; i < 3; i++) await take(await createUser(t.database), quiz.id, { [q[0]!]: right[0]! })
      const body = await stats(quiz.id)
      expect(body).toMatchObject({
        attempts: 3,
        mean: 1,
        standard_deviation: 0,
        cronbach_alpha: null,
        standard_error: null,
      })
      expect(body.questions[0].discrimination).toBeNull()
      expect(JSON.stringify(body)).not.toContain('NaN')
    })

    it("counts answers to an earlier version's options as other, and which=all takes every attempt", async () => {
      const { quiz, questionIds: q, correctOptionIds: right } = await activeQuiz(2)
      const learner = await createUser(t.database)
      await take(learner, quiz.id, { [q[0]!]: right[0]! })
      const admin = await asAdmin()
      const edited = await call(admin, 'PUT', `/api/admin/quizzes/${quiz.id}/questions/${q[0]}/`, {
        text: { en: 'Edited' },
        options: [
          { text: { en: 'Yes' }, is_correct: true },
          { text: { en: 'No' }, is_correct: false },
        ],
      })
      expect(edited.statusCode).toBe(200)
      const newOptions = edited.json().options.map((o: { id: number }) => o.id)
      await take(learner, quiz.id, { [q[0]!]: newOptions[1] })
      const first = await stats(quiz.id, 'first')
      expect(first.questions[0]).toMatchObject({ text: { en: 'Edited', ne: '' }, other: 1, facility: 1 })
      expect(first.questions[0].options.map((o: { count: number }) => o.count)).toEqual([0, 0])
      const all = await stats(quiz.id, 'all')
      expect(all.attempts).toBe(2)
      expect(all.questions[0]).toMatchObject({ other: 1, facility: 0.5 })
      expect(all.questions[0].options.map((o: { count: number }) => o.count)).toEqual([0, 1])
      expect((await call(admin, 'GET', `/api/admin/quizzes/${quiz.id}/statistics/?which=best`)).statusCode).toBe(400)
      // The CSV keeps each answer's letter in its own version: A of the old options, B of the new ones.
      const csv = (await call(admin, 'GET', `/api/admin/quizzes/${quiz.id}/attempts.csv?which=all`)).body
      const rows = csv.trim().split('\r\n').slice(1)
      expect(rows.map((row) => row.split(',').slice(4, 5).concat(row.split(',').slice(-2)))).toEqual([
        ['1', 'A', ''],
        ['2', 'B', ''],
      ])
    })
  })

  describe('learners', () => {
    it('lists users newest first with search over username, name and phone, case-insensitively, paged', async () => {
      const admin = await createUser(t.database, { is_admin: 1, username: 'boss', created_at: 1 })
      const sita = await createUser(t.database, { username: 'SitaRai', full_name: 'Sita', created_at: 2 })
      await createUser(t.database, {
        username: 'ram',
        full_name: 'राम थापा',
        phone_number: '9812345678',
        created_at: 3,
      })
      await createUser(t.database, { username: 'percent', full_name: '100% sure', created_at: 4 })
      const { quiz } = await activeQuiz(1)
      await take(sita, quiz.id, {})
      const headers = await headersOf(admin)
      const get = async (query: string) => (await call(headers, 'GET', `/api/admin/users/${query}`)).json()

      const all = await get('')
      expect(all.count).toBe(4)
      expect(all.results.map((u: { username: string }) => u.username)).toEqual(['percent', 'ram', 'SitaRai', 'boss'])
      expect(all.results[2]).toEqual({
        id: sita.id,
        username: 'SitaRai',
        full_name: 'Sita',
        phone_number: sita.phone_number,
        is_admin: false,
        is_marker: false,
        has_paid_access: false,
        paid_access_until: null,
        extra_time_percent: 0,
        date_joined: '1970-01-01T00:00:00.002Z',
        finished_attempts: 1,
      })
      expect((await get('?search=sitar')).results.map((u: { id: number }) => u.id)).toEqual([sita.id])
      expect((await get('?search=थापा')).results[0].username).toBe('ram')
      expect((await get('?search=1234')).results[0].username).toBe('ram')
      expect((await get('?search=%25')).results.map((u: { username: string }) => u.username)).toEqual(['percent'])
      expect((await get('?search=_')).count).toBe(0)
      const page = await get('?page=2&page_size=3')
      expect(page).toMatchObject({ count: 4, results: [{ username: 'boss', is_admin: true }] })
      expect((await call(headers, 'GET', '/api/admin/users/?page_size=501')).statusCode).toBe(400)
    })

    it('grants paid access with no end or until a date, and revokes it; access that ended is no access', async () => {
      const learner = await createUser(t.database)
      const headers = await asAdmin()
      const patch = (body: unknown) => call(headers, 'PATCH', `/api/admin/users/${learner.id}/`, body)
      const stored = () => paidAccessUntil(t.db, learner.id)

      let response = await patch({ has_paid_access: true })
      expect(response.statusCode).toBe(200)
      expect(response.json()).toMatchObject({ id: learner.id, has_paid_access: true, paid_access_until: null })

      response = await patch({ has_paid_access: true, paid_access_until: '2026-12-31T18:15:00+05:45' })
      expect(response.json()).toMatchObject({ has_paid_access: true, paid_access_until: '2026-12-31T12:30:00.000Z' })

      response = await patch({ paid_access_until: '2026-11-01T00:00:00Z' })
      expect(response.json()).toMatchObject({ has_paid_access: false, paid_access_until: null })
      expect(await stored()).toBe(Date.parse('2026-11-01T00:00:00Z'))

      // A learner with no access cannot take a paid quiz, and with access can.
      const { quiz } = await activeQuiz(1, { is_paid_tier: 1 })
      const learnerHeaders = await headersOf(learner)
      expect((await call(learnerHeaders, 'GET', `/api/quizzes/${quiz.id}/`)).statusCode).toBe(403)
      await patch({ has_paid_access: true })
      expect((await call(learnerHeaders, 'GET', `/api/quizzes/${quiz.id}/`)).statusCode).toBe(200)

      response = await patch({ has_paid_access: false })
      expect(response.json()).toMatchObject({ has_paid_access: false, paid_access_until: null })
      expect(await stored()).toBeNull()
    })

    it.each([
      [{ extra_time_percent: 301 }, 'extra_time_percent'],
      [{ extra_time_percent: -1 }, 'extra_time_percent'],
      [{ extra_time_percent: 12.5 }, 'extra_time_percent'],
      [{ has_paid_access: false, paid_access_until: '2027-01-01T00:00:00Z' }, 'paid_access_until'],
      [{ paid_access_until: 'tomorrow' }, 'paid_access_until'],
      [{ is_admin: true }, ''],
      [{}, ''],
    ])('refuses %j with 400 naming the field, and changes nothing', async (body, field) => {
      const learner = await createUser(t.database, { extra_time_percent: 25 })
      const response = await call(await asAdmin(), 'PATCH', `/api/admin/users/${learner.id}/`, body)
      expect(response.statusCode).toBe(400)
      expect(response.json().code).toBe('validation_error')
      if (field) expect(Object.keys(response.json().errors)).toContain(field)
      const row = await t.db.selectFrom('users').selectAll().where('id', '=', learner.id).executeTakeFirstOrThrow()
      expect(row).toMatchObject({ extra_time_percent: 25 })
      // Paid access is the membership's (decision 103).
      expect(await paidAccessUntil(t.db, learner.id)).toBeNull()
    })

    it('answers 404 for a user that does not exist', async () => {
      const response = await call(await asAdmin(), 'PATCH', '/api/admin/users/999/', { extra_time_percent: 10 })
      expect(response.statusCode).toBe(404)
    })

    it("lengthens the learner's next attempt by the extra time, never past the quiz's end", async () => {
      const learner = await createUser(t.database)
      const other = await createUser(t.database)
      const response = await call(await asAdmin(), 'PATCH', `/api/admin/users/${learner.id}/`, {
        extra_time_percent: 50,
      })
      expect(response.json().extra_time_percent).toBe(50)
      const now = t.clock.now()
      const { quiz } = await activeQuiz(1, { duration_minutes: 60 })
      const started = await call(await headersOf(learner), 'GET', `/api/quizzes/${quiz.id}/`)
      expect(started.json().attempt.deadline).toBe(new Date(now + 90 * MINUTE).toISOString())
      const plain = await call(await headersOf(other), 'GET', `/api/quizzes/${quiz.id}/`)
      expect(plain.json().attempt.deadline).toBe(new Date(now + 60 * MINUTE).toISOString())

      const { quiz: ending } = await activeQuiz(1, { duration_minutes: 60, end_time: now + 80 * MINUTE })
      const capped = await call(await headersOf(learner), 'GET', `/api/quizzes/${ending.id}/`)
      expect(capped.json().attempt.deadline).toBe(new Date(now + 80 * MINUTE).toISOString())
    })
  })
})
