import type { Kysely } from 'kysely'
import type { DB } from '../db/schema'
import { toDevanagariDigits } from '../lib/digits'
import { notify, type NewNotification } from '../notifications/notifications.service'
import { listQuizTitles, quizzesOfAttempts } from './challenges.repository'
import type { MarkChange } from './regrade'

const two = (hundredths: number) => (hundredths / 100).toFixed(2)

const OUTCOME = {
  accepted: { en: 'accepted', ne: 'स्वीकार गरियो' },
  rejected: { en: 'not accepted', ne: 'स्वीकार गरिएन' },
} as const

// Inside the decision's transaction, so a rolled-back decision tells no one; pushes leave after the commit (035).
export async function notifyKeyDecision(
  db: Kysely<DB>,
  decision: {
    status: 'accepted' | 'rejected'
    note: string
    flaggers: readonly { user_id: number; attempt_id: number }[]
    scored: readonly MarkChange[]
    now: number
  },
) {
  const quizOfAttempt = await quizzesOfAttempts(
    db,
    decision.flaggers.map((flag) => flag.attempt_id),
  )
  const quizIds = [...new Set([...decision.scored.map((change) => change.attempt.quiz_id), ...quizOfAttempt.values()])]
  const titles = new Map<number, { en: string; ne: string }>()
  for (const row of await listQuizTitles(db, quizIds))
    titles.set(row.id, { en: row.title_en, ne: row.title_ne || row.title_en })
  const outcome = OUTCOME[decision.status]
  const items: NewNotification[] = [
    ...decision.flaggers.map((flag) => {
      const title = titles.get(quizOfAttempt.get(flag.attempt_id) ?? 0) ?? { en: '', ne: '' }
      return {
        userId: flag.user_id,
        kind: 'flag_decided' as const,
        text: {
          en: `Your challenge of a question in “${title.en}” was ${outcome.en}: ${decision.note}`,
          ne: `“${title.ne}” को प्रश्नमाथि तपाईंको उजुरी ${outcome.ne}: ${decision.note}`,
        },
        link: `/results/${flag.attempt_id}`,
      }
    }),
    ...decision.scored.map((change) => {
      const title = titles.get(change.attempt.quiz_id) ?? { en: '', ne: '' }
      const from = two(change.attempt.score_hundredths)
      const to = two(change.attempt.score_hundredths + change.newMarks - change.oldMarks)
      return {
        userId: change.attempt.user_id,
        kind: 'score_changed' as const,
        text: {
          en: `The answer key of “${title.en}” changed: your score went from ${from} to ${to}.`,
          ne: `“${title.ne}” को उत्तरकुञ्जी बदलियो: तपाईंको अङ्क ${toDevanagariDigits(from)} बाट ${toDevanagariDigits(to)} भयो।`,
        },
        link: `/results/${change.attempt.id}`,
      }
    }),
  ]
  await notify(db, items, decision.now)
}
