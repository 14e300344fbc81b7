import { beforeAll, describe, expect, it } from 'vitest'
import { multipart } from '../../test/auth-requests'
import { dialects } from '../../test/dialects'
import { bearerFor, createUser } from '../../test/factories'
import { requestsAs } from '../../test/learner-api'
import { typedPaper } from '../../test/fixtures/question-types.fixtures'
import { markedSheetSvg, photographSheet, plainPhoto, type Mark } from '../../test/fixtures/sheet-photos'
import { testConfig, useTestApp } from '../../test/test-app'
import { sheetSecret } from './sitting-view'

// API.md "Question types", "On paper": a multiple question's row takes several marks, scored by the section's scheme.

const HELD_AT = '2026-11-28T04:15:00.000Z'
const secret = sheetSecret(testConfig().jwtSecret)
// typedPaper's admin is user 1, the learner user 2; its multiple question prints A-D ("2", "4", "5", "9"; A and C
// right), its numeric one no row yet, its choice one 4 options at number 3.
const LEARNER = 2

const photoOf = (marks: Mark[], seed: number) =>
  photographSheet(
    markedSheetSvg(
      {
        secret,
        sittingId: 1,
        labels: 'latin',
        optionCounts: [4, 4],
        numbers: [1, 3],
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
}, 30_000)

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
