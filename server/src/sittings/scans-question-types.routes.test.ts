import { beforeAll, describe, expect, it } from 'vitest'
import { multipart } from '../../test/auth-requests'
import { dialects } from '../../test/dialects'
import { bearerFor, createUser } from '../../test/factories'
import { requestsAs } from '../../test/learner-api'
import { numericBody, typedPaper } from '../../test/fixtures/question-types.fixtures'
import {
  gridMarksFor,
  markedSheetSvg,
  photographSheet,
  plainPhoto,
  type GridMark,
  type Mark,
} from '../../test/fixtures/sheet-photos'
import { testConfig, useTestApp } from '../../test/test-app'
import { sheetSecret } from './sitting-view'

// API.md "Question types", "On paper": a multiple question's row takes several marks, scored by the section's scheme.

const HELD_AT = '2026-11-28T04:15:00.000Z'
const secret = sheetSecret(testConfig().jwtSecret)
// typedPaper's admin is user 1, the learner user 2; its multiple question prints A-D ("2", "4", "5", "9"; A and C
// right), its numeric one (3.14 ± 0.01, 2 decimals) a grid of 1 + 2 digits at number 2, its choice one 4 options at
// number 3.
const LEARNER = 2
const GRID = { number: 2, whole: 1, fraction: 2 }

const photoOf = (marks: Mark[], seed: number, gridMarks: GridMark[] = []) =>
  photographSheet(
    markedSheetSvg(
      {
        secret,
        sittingId: 1,
        labels: 'latin',
        optionCounts: [4, 4],
        numbers: [1, 3],
        numeric: [GRID],
        gridMarks,
        holder: { kind: 'roster', learnerName: 'Sita', rollNumber: 1, set: 'A' },
        learnerId: LEARNER,
        marks,
      },
      seed,
    ),
    { ...plainPhoto, seed },
  )

const photos = {} as Record<string, Buffer>
beforeAll(async () => {
  photos.ac = await photoOf(
    [
      { question: 0, option: 0, style: 'pen' },
      { question: 0, option: 2, style: 'pencil' },
    ],
    21,
  )
  const ac = [
    { question: 0, option: 0, style: 'pen' as const },
    { question: 0, option: 2, style: 'pen' as const },
  ]
  photos.pi = await photoOf(ac, 22, gridMarksFor(0, GRID, '3.14'))
  // Two digits in the grid's first column: a person types the number.
  photos.doubtful = await photoOf(ac, 23, [
    ...gridMarksFor(0, GRID, '3.14'),
    { grid: 0, column: 1, bubble: 8, style: 'pen' },
  ])
}, 60_000)

describe.each(dialects)('multiple rows on paper on %s', (dialect) => {
  const t = useTestApp(dialect)
  const as = requestsAs(t)

  it('reads a multiple row with several marks, scores it by the partial scheme, and settles joined letters', async () => {
    const paper = await typedPaper(t, as)
    const sitting = await as(paper.admin, 'POST', `/api/admin/quizzes/${paper.quizId}/sittings/`, { held_at: HELD_AT })
    expect(sitting.status, sitting.raw).toBe(201)
    const learner = await createUser(t.database, { username: 'sita' })
    expect(learner.id).toBe(LEARNER)
    await as(paper.admin, 'PUT', '/api/admin/sittings/1/roster/', { learners: [{ username: 'sita' }] })
    const printed = await as(paper.admin, 'GET', '/api/admin/sittings/1/paper/?set=A')
    const texts = printed.body.sections[0].questions[0].options.map((o: { text: { en: string } }) => o.text.en)
    expect(texts).toEqual(['2', '4', '5', '9'])

    const form = multipart({}, [{ field: 'image', filename: 's.jpg', contentType: 'image/jpeg', data: photos.ac! }])
    const scanned = await t.app.inject({
      method: 'POST',
      url: '/api/admin/sittings/1/scans/',
      headers: { ...(await bearerFor(t.tokens, paper.admin)), ...form.headers },
      payload: form.payload,
    })
    // Two marks on a multiple row are its answer, not a flag: the right set scores marks_correct.
    expect(scanned.statusCode, scanned.body).toBe(201)
    const scan = scanned.json()
    expect(scan).toMatchObject({ status: 'recorded', answers: { 1: 'AC', 3: null }, flags: [], score: 4 })

    const patch = (answers: Record<string, string | null>) =>
      as(paper.admin, 'PATCH', `/api/admin/scans/${scan.id}/`, { answers })
    // One right option of two, none wrong: partial_marks 1, recorded as partial.
    const part = await patch({ 1: 'C' })
    expect(part.status, part.raw).toBe(200)
    expect(part.body).toMatchObject({ status: 'recorded', answers: { 1: 'C' }, score: 1 })
    const attempt = await t.db
      .selectFrom('attempts')
      .select(['score_hundredths', 'correct'])
      .where('id', '=', part.body.attempt_id)
      .executeTakeFirstOrThrow()
    expect(attempt).toEqual({ score_hundredths: 100, correct: 0 })
    // Joined letters in any order are kept in the labels' order; a wrong option chosen: -marks_wrong.
    expect((await patch({ 1: 'BA' })).body).toMatchObject({ answers: { 1: 'AB' }, score: -2 })
    // A letter not an option of the row, or several letters on a one-answer row -> 400 at its path.
    for (const answers of [{ 1: 'AF' }, { 1: '' }, { 3: 'AB' }] as Record<string, string>[]) {
      const refused = await patch(answers)
      expect(refused.status).toBe(400)
      expect(Object.keys(refused.body.errors)).toEqual([`answers.${Object.keys(answers)[0]}`])
    }
    expect((await as(paper.admin, 'GET', `/api/admin/scans/${scan.id}/`)).body.score).toBe(-2)
  })
})

describe.each(dialects)('numeric grids on paper on %s', (dialect) => {
  const t = useTestApp(dialect)
  const as = requestsAs(t)

  const upload = async (admin: Parameters<typeof bearerFor>[1], photo: Buffer, replace = false) => {
    const form = multipart(replace ? { replace: 'true' } : {}, [
      { field: 'image', filename: 's.jpg', contentType: 'image/jpeg', data: photo },
    ])
    return t.app.inject({
      method: 'POST',
      url: '/api/admin/sittings/1/scans/',
      headers: { ...(await bearerFor(t.tokens, admin)), ...form.headers },
      payload: form.payload,
    })
  }

  it('prints a grid for a numeric question, reads and scores it, and settles a typed number', async () => {
    const paper = await typedPaper(t, as)
    expect(
      (await as(paper.admin, 'POST', `/api/admin/quizzes/${paper.quizId}/sittings/`, { held_at: HELD_AT })).status,
    ).toBe(201)
    await createUser(t.database, { username: 'sita' })
    await as(paper.admin, 'PUT', '/api/admin/sittings/1/roster/', { learners: [{ username: 'sita' }] })

    // The sheet-layout has the grid: a sign column, one whole and two decimal digit columns, the point's places.
    const layout = await as(paper.admin, 'GET', '/api/admin/sittings/1/sheet-layout/?set=A')
    expect(layout.status, layout.raw).toBe(200)
    expect(layout.body.questions.map((q: { number: number }) => q.number)).toEqual([1, 3])
    expect(layout.body.numeric).toHaveLength(1)
    expect(layout.body.numeric[0].question).toBe(2)
    expect(layout.body.numeric[0].columns.map((c: { kind: string }) => c.kind)).toEqual([
      'sign',
      'digit',
      'digit',
      'digit',
      'point',
    ])
    expect(layout.body.numeric[0].columns[1].bubbles[0]).toEqual({
      label: '0',
      x_mm: expect.any(Number),
      y_mm: expect.any(Number),
      r_mm: expect.any(Number),
    })
    const svg = await t.app.inject({
      method: 'GET',
      url: '/api/admin/sittings/1/sheets/1.svg',
      headers: await bearerFor(t.tokens, paper.admin),
    })
    expect(svg.statusCode).toBe(200)
    expect(svg.body).toContain('>−<')

    // "3.14" in the grid: the multiple row's right set (4) and the number (3) score 7.
    const scanned = await upload(paper.admin, photos.pi!)
    expect(scanned.statusCode, scanned.body).toBe(201)
    const scan = scanned.json()
    expect(scan).toMatchObject({ status: 'recorded', answers: { 1: 'AC', 2: '3.14', 3: null }, flags: [], score: 7 })
    const stored = await t.db
      .selectFrom('attempt_answers')
      .select(['question_id', 'value'])
      .where('attempt_id', '=', scan.attempt_id)
      .where('question_id', '=', paper.numericId)
      .executeTakeFirstOrThrow()
    expect(stored.value).toBe('"3.14"')

    const patch = (answers: Record<string, string | null>) =>
      as(paper.admin, 'PATCH', `/api/admin/scans/${scan.id}/`, { answers })
    // A typed number, kept in its shortest form; a wrong one scores 0 (the section has numeric_negative false).
    expect((await patch({ 2: '3.20' })).body).toMatchObject({ status: 'recorded', answers: { 2: '3.2' }, score: 4 })
    expect((await patch({ 2: '+3.13' })).body).toMatchObject({ answers: { 2: '3.13' }, score: 7 })
    expect((await patch({ 2: null })).body).toMatchObject({ answers: { 2: null }, score: 4 })
    // What the number rule refuses -> 400 invalid_number at answers.2: letters, too many decimals, an empty string.
    for (const value of ['abc', '3.141', '']) {
      const refused = await patch({ 2: value })
      expect(refused.status, value).toBe(400)
      expect(refused.body.code).toBe('invalid_number')
      expect(Object.keys(refused.body.errors)).toEqual(['answers.2'])
    }
    expect((await as(paper.admin, 'GET', `/api/admin/scans/${scan.id}/`)).body.score).toBe(4)

    // A doubtful grid is for a person: flagged numeric_unclear, no answer and no attempt until the number is typed.
    const doubtful = await upload(paper.admin, photos.doubtful!, true)
    expect(doubtful.statusCode, doubtful.body).toBe(201)
    expect(doubtful.json()).toMatchObject({
      status: 'needs_review',
      answers: { 1: 'AC', 2: null },
      flags: [{ question: 2, kind: 'numeric_unclear', marks: ['3/8', '.', '1', '4'], box: expect.any(Object) }],
      attempt_id: null,
    })
    const settled = await as(paper.admin, 'PATCH', `/api/admin/scans/${doubtful.json().id}/`, {
      answers: { 2: '3.14' },
    })
    expect(settled.body).toMatchObject({ status: 'recorded', flags: [], score: 7 })
  })

  it('refuses a paper whose numeric question needs more than 8 digits', async () => {
    const admin = await createUser(t.database, { is_admin: 1 })
    const created = await as(admin, 'POST', '/api/quizzes/create-from-json/', {
      title: { en: 'Wide number' },
      sections: [{ items: [numericBody({ answer: { value: 123456.789, tolerance: 0 }, decimals: 3 })] }],
    })
    expect(created.status, created.raw).toBe(201)
    const refused = await as(admin, 'POST', `/api/admin/quizzes/${created.body.quiz_id}/sittings/`, {
      held_at: HELD_AT,
    })
    expect(refused.status).toBe(409)
    expect(refused.body).toMatchObject({ code: 'paper_not_printable', questions: [{ number: 1 }] })
    // Seven grids of 5 digits each span two columns: a sheet holds six.
    const many = await as(admin, 'POST', '/api/quizzes/create-from-json/', {
      title: { en: 'Many numbers' },
      sections: [
        {
          items: Array.from({ length: 7 }, (_, i) =>
            numericBody({ answer: { value: 12345 + i, tolerance: 0 }, decimals: 0 }),
          ),
        },
      ],
    })
    expect(many.status, many.raw).toBe(201)
    const full = await as(admin, 'POST', `/api/admin/quizzes/${many.body.quiz_id}/sittings/`, { held_at: HELD_AT })
    expect(full.status).toBe(409)
    expect(full.body).toMatchObject({ code: 'paper_not_printable', question_count: 7 })
  })
})
