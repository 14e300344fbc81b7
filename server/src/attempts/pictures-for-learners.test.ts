import { PICTURE_URL_PATTERN } from '@quiz/contracts'
import { describe, expect, it } from 'vitest'
import type { UserRow } from '../db/schema'
import { dialects } from '../../test/dialects'
import { bearerFor, createUser } from '../../test/factories'
import { dataUrl, png } from '../../test/fixtures/pictures'
import { openQuiz, requestsAs } from '../../test/learner-api'
import { useTestApp } from '../../test/test-app'

interface Option {
  id: number
  image: unknown
}

describe.each(dialects)('pictures in what learners are shown on %s', (dialect) => {
  const t = useTestApp(dialect)
  const call = requestsAs(t)

  /** A quiz of three questions whose second shows a map, and whose second option shows one too. */
  async function quizWithPictures() {
    const quiz = await openQuiz(t, {}, { questionCount: 3 })
    const headers = await bearerFor(t.tokens, await createUser(t.database, { is_admin: 1 }))
    const edited = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/quizzes/${quiz.quiz.id}/questions/${quiz.questionIds[1]}/`,
      headers,
      payload: {
        text: { en: 'Where is Pokhara?' },
        image: { picture: dataUrl(await png(2000, 1500)), caption: { en: 'A map of Nepal' } },
        options: [
          { text: { en: 'Here' }, is_correct: true },
          { text: { en: 'There' }, is_correct: false, image: { picture: dataUrl(await png(60, 40, { alpha: 0.5 })) } },
        ],
      },
    })
    expect(edited.statusCode).toBe(200)
    const question = edited.json()
    return {
      ...quiz,
      questionId: question.id as number,
      options: question.options as (Option & { is_correct: boolean })[],
      map: question.image.picture as { url: string; width: number; height: number },
      optionPicture: question.options[1].image.picture as { url: string; width: number; height: number },
    }
  }

  const pictureImage = (picture: unknown, caption = { en: '', ne: '', html: null }) => ({
    svg: null,
    picture,
    caption,
  })

  it('shows pictures in question n and in every question of the paper fetched for offline use, no key', async () => {
    const { quiz, map, optionPicture } = await quizWithPictures()
    expect(map).toEqual({ url: expect.stringMatching(PICTURE_URL_PATTERN), width: 1600, height: 1200 })
    const learner = await createUser(t.database)
    const start = await call(learner, 'GET', `/api/quizzes/${quiz.id}/`)
    expect(start.status).toBe(200)
    expect(start.body.questions).toHaveLength(3)

    // The offline paper: every question of the attempt, as the quiz screen fetches them when it starts.
    const paper = await Promise.all(
      start.body.questions.map((_: unknown, index: number) =>
        call(learner, 'GET', `/api/quizzes/${quiz.id}/question/${index + 1}/`),
      ),
    )
    const shown = paper.find((question) => question.body.image !== null)!
    expect(shown.status).toBe(200)
    expect(shown.body.image).toEqual(pictureImage(map, { en: 'A map of Nepal', ne: '', html: null }))
    expect(shown.body.options.map((option: Option) => option.image)).toEqual([null, pictureImage(optionPicture)])
    for (const question of paper) {
      expect(question.raw).not.toContain('is_correct')
      expect(question.raw).not.toContain('hint')
    }
    // Its pictures are fetched with it, without a token, as an <img> or the offline worker does.
    for (const { url } of [map, optionPicture]) {
      const picture = await t.app.inject({ method: 'GET', url })
      expect(picture.statusCode).toBe(200)
      expect(picture.headers['content-type']).toBe('image/webp')
    }
  })

  async function submitWrong(learner: UserRow, quizId: number, questionId: number, wrongOptionId: number) {
    const submitted = await call(learner, 'POST', `/api/quizzes/${quizId}/submit/`, {
      answers: { [questionId]: wrongOptionId },
    })
    expect(submitted.status).toBe(200)
    return submitted.body.attempt_id as number
  }

  it('shows pictures in the report card beside svg_content, and in the practice deck', async () => {
    const { quiz, questionId, options, map, optionPicture } = await quizWithPictures()
    const learner = await createUser(t.database)
    const attemptId = await submitWrong(learner, quiz.id, questionId, options[1]!.id)

    const report = await call(learner, 'GET', `/api/results/${attemptId}/`)
    expect(report.status).toBe(200)
    const question = report.body.questions.find((entry: { id: number }) => entry.id === questionId)
    expect(question.image).toEqual({
      svg_content: null,
      picture: map,
      caption: { en: 'A map of Nepal', ne: '', html: null },
    })
    expect(question.options[1].image).toEqual({
      svg_content: null,
      picture: optionPicture,
      caption: { en: '', ne: '', html: null },
    })

    const deck = await call(learner, 'GET', '/api/practice/')
    expect(deck.status).toBe(200)
    const card = deck.body.cards.find((entry: { question: { id: number } }) => entry.question.id === questionId)
    expect(card.question.image).toEqual(pictureImage(map, { en: 'A map of Nepal', ne: '', html: null }))
    expect(card.question.options[1].image).toEqual(pictureImage(optionPicture))
    expect(deck.raw).not.toContain('is_correct')
  })

  it('reads the pictures of a paper into memory when the paper is first read, before anyone asks for them', async () => {
    const { quiz, map, optionPicture } = await quizWithPictures()
    const learner = await createUser(t.database)
    expect((await call(learner, 'GET', `/api/quizzes/${quiz.id}/`)).status).toBe(200)
    // The read ahead runs beside the start; once it is done the pictures are served without the database.
    await new Promise((resolve) => setTimeout(resolve, 300))
    await t.db.deleteFrom('pictures').execute()
    for (const { url } of [map, optionPicture]) {
      const picture = await t.app.inject({ method: 'GET', url })
      expect(picture.statusCode).toBe(200)
    }
  })
})
