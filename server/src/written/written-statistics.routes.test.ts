import { describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { bearerFor, createUser } from '../../test/factories'
import { createMarker, handTo } from '../../test/marking'
import { requestsWithEmptyBodies } from '../../test/requests'
import { useTestApp } from '../../test/test-app'
import { writtenPaper } from '../../test/written-papers'

describe.each(dialects)('statistics of written questions on %s', (dialect) => {
  const t = useTestApp(dialect)
  const as = requestsWithEmptyBodies(t)

  /** Three learners: one marked 5 (item "Names"), one 8 ("Names" and "Example"), one not marked yet. */
  async function scene() {
    const paper = await writtenPaper(t)
    const stored = await paper.rubric('PUT', {
      revision: 0,
      items: [
        { points: 5, title: { en: 'Names the body', ne: 'निकाय' } },
        { points: 3, title: { en: 'Gives an example' } },
        { points: 1, title: { en: 'Never used' } },
      ],
    })
    const [names, example, unused] = (stored.body.rubric.items as { id: number }[]).map((item) => item.id)
    const marker = await createMarker(t)
    const [five, eight, waiting] = [await paper.sit(), await paper.sit(), await paper.sit()]
    for (const [sat, items] of [
      [five, [names]],
      [eight, [names, example]],
    ] as const) {
      await handTo(t, sat.answerId, marker.id)
      const marked = await as(marker, 'PUT', `/api/admin/written-answers/${sat.answerId}/evaluation/`, {
        items,
        rubric_revision: 1,
      })
      expect(marked.status).toBe(200)
    }
    const stats = `/api/admin/bank/questions/${paper.questionId}/rubric/stats/`
    return { ...paper, marker, five, eight, waiting, names: names!, example: example!, unused: unused!, stats }
  }

  it("counts the rubric's items over marked answers, in all quizzes or one", async () => {
    const paper = await scene()
    const expected = {
      marked: 2,
      mean: 6.5,
      items: [
        { id: paper.names, title: { en: 'Names the body', ne: 'निकाय' }, applied: 2, share: 1 },
        { id: paper.example, title: { en: 'Gives an example', ne: '' }, applied: 1, share: 0.5 },
        { id: paper.unused, title: { en: 'Never used', ne: '' }, applied: 0, share: 0 },
      ],
    }
    expect(await as(paper.admin, 'GET', paper.stats)).toMatchObject({ status: 200, body: expected })
    expect((await as(paper.admin, 'GET', `${paper.stats}?quiz_id=${paper.quizId}`)).body).toEqual(expected)
    // Released answers count too.
    await paper.release()
    expect((await as(paper.admin, 'GET', `${paper.stats}?quiz_id=${paper.quizId}`)).body).toEqual(expected)
    // Another quiz holding the question has marked nothing.
    const other = await paper.as(paper.admin, 'POST', '/api/quizzes/create-from-json/', {
      title: { en: 'Another set' },
      questions: [{ type: 'written', text: { en: 'Other' }, marks: 5 }],
    })
    expect((await as(paper.admin, 'GET', `${paper.stats}?quiz_id=${other.body.quiz_id}`)).body).toMatchObject({
      marked: 0,
      mean: null,
      items: [{ applied: 0, share: null }, { applied: 0 }, { applied: 0 }],
    })
  })

  it('refuses a choice question, an unknown quiz or question, a bad quiz id and anyone but an admin', async () => {
    const paper = await scene()
    expect((await as(paper.admin, 'GET', `/api/admin/bank/questions/${paper.choiceId}/rubric/stats/`)).status).toBe(404)
    expect((await as(paper.admin, 'GET', '/api/admin/bank/questions/999999/rubric/stats/')).status).toBe(404)
    expect((await as(paper.admin, 'GET', `${paper.stats}?quiz_id=999999`)).status).toBe(404)
    expect((await as(paper.admin, 'GET', `${paper.stats}?quiz_id=one`)).status).toBe(400)
    expect((await as(paper.marker, 'GET', paper.stats)).status).toBe(403)
    expect((await as(await createUser(t.database), 'GET', paper.stats)).status).toBe(403)
  })

  it("lists written questions in the quiz's statistics once released, apart from the choice questions' figures", async () => {
    const paper = await scene()
    const url = `/api/admin/quizzes/${paper.quizId}/statistics/`
    for (const which of ['first', 'all']) {
      const pending = await as(paper.admin, 'GET', `${url}?which=${which}`)
      expect(pending.status).toBe(200)
      // Every attempt's written part is pending: none is counted yet.
      expect(pending.body).toMatchObject({
        attempts: 0,
        question_count: 2,
        questions: [{ id: paper.choiceId, number: 1 }],
        written: [{ id: paper.questionId, number: 2, max_marks: 10, marked: 0, mean: null, share: null }],
      })
      expect(pending.body.questions).toHaveLength(1)
    }
    await paper.release()
    const released = await as(paper.admin, 'GET', url)
    expect(released.body).toMatchObject({
      attempts: 2,
      questions: [{ id: paper.choiceId, number: 1, facility: 1, unanswered: 0 }],
      written: [
        {
          id: paper.questionId,
          number: 2,
          text: { en: 'Explain the role of the Public Service Commission.' },
          topic: 'Constitution',
          max_marks: 10,
          marked: 2,
          mean: 6.5,
          share: 0.65,
        },
      ],
    })
  })

  it("gives the attempts CSV each written question's marks, empty until marked", async () => {
    const paper = await scene()
    const csvUrl = `/api/admin/quizzes/${paper.quizId}/attempts.csv`
    const read = async () => {
      const response = await t.app.inject({
        method: 'GET',
        url: csvUrl,
        headers: await bearerFor(t.tokens, paper.admin),
      })
      expect(response.statusCode).toBe(200)
      const lines = response.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split(/\r?\n/)
      const header = lines[0]!.split(',')
      const cellOf = (attemptId: number, column: string) => {
        const line = lines.find((row) => row.startsWith(`${attemptId},`))!
        return line.split(',')[header.indexOf(column)]
      }
      return { header, cellOf }
    }
    const before = await read()
    expect(before.header.slice(-2)).toEqual(['Q1', 'Q2'])
    expect(before.cellOf(paper.five.attemptId, 'Q2')).toBe('5')
    expect(before.cellOf(paper.eight.attemptId, 'Q2')).toBe('8')
    expect(before.cellOf(paper.waiting.attemptId, 'Q2')).toBe('')
    expect(before.cellOf(paper.waiting.attemptId, 'Q1')).toMatch(/^[A-D]$/)
    await paper.mark(paper.waiting.answerId, { adjustment: 725 })
    await paper.release()
    expect((await read()).cellOf(paper.waiting.attemptId, 'Q2')).toBe('7.25')
  })
})
