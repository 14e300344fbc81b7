import type { AttemptRow } from '../db/schema'
import { toDevanagariDigits } from '../lib/digits'
import type { NewNotification } from '../notifications/notifications.service'
import { maxScoreHundredths, type AttemptSection } from '../questions/sections'

const two = (hundredths: number) => (hundredths / 100).toFixed(2)

export const paperResultLink = (attemptId: number) => `/results/${attemptId}`

/** `paper_result`: the learner's answer sheet is marked, told in the transaction that records it, with a push. */
export function paperResultNotification(
  sitting: { title_en: string; title_ne: string },
  attempt: Pick<AttemptRow, 'id' | 'user_id' | 'score_hundredths'>,
  sections: readonly AttemptSection[],
): NewNotification {
  const score = two(attempt.score_hundredths ?? 0)
  const max = two(maxScoreHundredths(sections))
  const title = { en: sitting.title_en, ne: sitting.title_ne || sitting.title_en }
  return {
    userId: attempt.user_id,
    kind: 'paper_result',
    text: {
      en: `Your answer sheet for “${title.en}” is marked: ${score} out of ${max}. See the report and the photo of your sheet.`,
      ne: `“${title.ne}” को तपाईंको उत्तरपुस्तिका जाँचियो: ${toDevanagariDigits(max)} मध्ये ${toDevanagariDigits(score)} अङ्क। नतिजा र आफ्नो उत्तरपुस्तिकाको फोटो हेर्नुहोस्।`,
    },
    link: paperResultLink(attempt.id),
  }
}
