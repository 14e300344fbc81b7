import type { AnswerMap, PracticeAnswerBody, PracticeAnswerResult, PracticeCard, PracticeDeck } from '@quiz/contracts'
import { findAnswerKeys, isKeyedCorrect } from '../questions/answer-keys'
import { markQuestion } from '../questions/scoring'
import { DEFAULT_MARKS_CORRECT, DEFAULT_MARKS_WRONG } from '../questions/sections'
import { toScoredQuestion } from '../questions/scored-question'
import type { TokenUser } from '../http/tokens'
import type { AppContext } from '../context'
import { AppError, NotFound, ValidationFailed } from '../http/errors'
import { toIso } from '../lib/clock'
import { findRevisions, optionView, richTextsOf, toImage } from '../questions/question-revisions.repository'
import { createKeyWithholding } from '../attempts/withheld-keys.service'
import { answerProblem, owesCards, payOwedCards } from '../attempts/attempts.service'
import { countCards, findCard, listDueCards, moveCard } from './practice.repository'
import { refusedAfterCommit } from '../http/refusals'

const DAY = 24 * 3600_000
/** Leitner boxes (API.md): box 1 is due at once, box 2 one day after its last practice, box 3 three days after. */
const DELAY_BY_BOX: Record<number, number> = { 1: 0, 2: DAY, 3: 3 * DAY }
const LAST_BOX = 3
const CARDS_PER_DECK = 20

export function createPracticeService({ database, clock, config }: Pick<AppContext, 'database' | 'clock' | 'config'>) {
  const { db } = database
  const withholding = createKeyWithholding({ graceMs: config.submitGraceSeconds * 1000 })

  async function getDeck(user: TokenUser): Promise<PracticeDeck> {
    if (await owesCards(db, user.id)) await database.transaction((trx) => payOwedCards(trx, [user.id]))
    const now = clock.now()
    const withheld = await withholding.withheldQuestions(db, user.id, now)
    const [counts, due] = await Promise.all([
      countCards(db, user.id, now, withheld),
      listDueCards(db, user.id, now, CARDS_PER_DECK, withheld),
    ])
    const revisions = await findRevisions(
      db,
      due.map((card) => card.revision_id),
    )
    const cards: PracticeCard[] = []
    for (const card of due) {
      const revision = revisions.get(card.revision_id)
      if (!revision) continue
      const texts = richTextsOf(revision, 'learner')
      cards.push({
        box: card.box,
        question: {
          id: card.question_id,
          text: texts.text,
          topic: revision.topic,
          image: toImage(revision, texts.caption, 'svg'),
          type: revision.type,
          options: revision.options.map((option) => optionView(option, 'learner', 'svg')),
          ...(revision.type === 'numeric' && { decimals: revision.decimals }),
        },
      })
    }
    return {
      due: counts.due,
      total: counts.total,
      cards,
      next_due_at: counts.nextDueAt === null ? null : toIso(counts.nextDueAt),
    }
  }

  async function answerCard(
    user: TokenUser,
    questionId: number,
    body: PracticeAnswerBody,
  ): Promise<PracticeAnswerResult> {
    const now = clock.now()
    return refusedAfterCommit(
      database.transaction(async (trx): Promise<PracticeAnswerResult | AppError> => {
        await payOwedCards(trx, [user.id])
        const card = await findCard(trx, user.id, questionId)
        if (!card || card.due_at > now) return cardNotDue()
        if ((await withholding.withheldQuestions(trx, user.id, now)).has(questionId)) return cardNotDue()
        const revision = (await findRevisions(trx, [card.revision_id])).get(card.revision_id)
        if (!revision) return cardNotDue()
        const answer = practiceAnswer(questionId, body)
        if (answer instanceof AppError) return answer
        const scored = toScoredQuestion(revision)
        const optionIds = new Set(revision.options.map((option) => option.id))
        const problem =
          answer.value === null || (Array.isArray(answer.value) && answer.value.length === 0)
            ? 'Choose an answer.'
            : answerProblem({ ...scored, optionIds }, answer.value as AnswerMap[string])
        if (problem) {
          const invalidNumber = revision.type === 'numeric' && typeof answer.value === 'string'
          return invalidNumber
            ? new ValidationFailed(
                { [answer.path]: [problem] },
                'A typed number is not one the question accepts.',
                'invalid_number',
              )
            : new ValidationFailed({ [answer.path]: [problem] })
        }
        // A decided key (docs/decisions/036) is the key practice checks against; a dropped question takes any answer.
        // Marked by the exam's markers with the default marks: right is full marks (a multiple answer's whole set).
        const key = (await findAnswerKeys(trx, [revision.id])).get(revision.id)
        const { outcome } = markQuestion(key ? { ...scored, key } : scored, answer.value, PRACTICE_MARKS)
        const correct = outcome === 'correct'
        const rightOptions = revision.options.filter((option) =>
          isKeyedCorrect(option.id, option.is_correct === 1, key),
        )
        const chosen = typeof answer.value === 'number' ? answer.value : null
        const correctOptionId =
          revision.type === 'numeric'
            ? null
            : ((rightOptions.find((option) => option.id === chosen) ?? rightOptions[0])?.id ?? 0)
        const box = correct ? (card.box >= LAST_BOX ? null : card.box + 1) : 1
        const to = box === null ? null : { box, dueAt: now + DELAY_BY_BOX[box]! }
        if (!(await moveCard(trx, { userId: user.id, questionId, fromBox: card.box, now }, to))) return cardNotDue()
        return {
          correct,
          correct_option_id: correctOptionId,
          ...(revision.type === 'multiple' && { correct_option_ids: rightOptions.map((option) => option.id) }),
          ...(scored.numeric && { answer: key?.answer ?? scored.numeric.answer }),
          hint: richTextsOf(revision, 'learner').hint,
          box,
          due_at: to ? toIso(to.dueAt) : null,
        }
      }),
    )
  }

  return { getDeck, answerCard }
}

const cardNotDue = () => new NotFound('This question is not due for practice.')

const PRACTICE_MARKS = { correct: DEFAULT_MARKS_CORRECT, wrong: DEFAULT_MARKS_WRONG }

/** The answer a practice body gives for the card's question, and the path its errors are reported at. */
function practiceAnswer(
  questionId: number,
  body: PracticeAnswerBody,
): { value: AnswerMap[string]; path: string } | ValidationFailed {
  if (body.answers === undefined) return { value: body.option_id ?? null, path: 'option_id' }
  const others = Object.keys(body.answers).filter((key) => Number(key) !== questionId)
  if (others.length > 0)
    return new ValidationFailed(
      Object.fromEntries(others.map((key) => [`answers.${key}`, ['Answer the card being practised only.']])),
    )
  return { value: body.answers[questionId] ?? null, path: `answers.${questionId}` }
}

export type PracticeService = ReturnType<typeof createPracticeService>
