import { fromHundredths, type MarkingAnswer } from '@quiz/contracts'
import type { Kysely } from 'kysely'
import type { AppContext } from '../context'
import type { DB } from '../db/schema'
import { pageUrls } from './answer-pages'
import { anonymousCode, findAnswerForMarking, listPages } from './marking.repository'
import { toRubricDto } from './rubric'
import { findRubric } from './rubric.repository'
import { findWrittenAnswer, listAnswerItems } from './written-answers.repository'

/** An answer as a marker sees it: its pages, its question's rubric, and its marks once marked. */
export async function describeForMarking(
  trx: Kysely<DB>,
  answerId: number,
  { urlKey, clock }: { urlKey: Buffer; clock: AppContext['clock'] },
): Promise<MarkingAnswer> {
  const answer = (await findAnswerForMarking(trx, answerId))!
  const [pages, rubric, written] = await Promise.all([
    listPages(trx, answerId),
    findRubric(trx, answer.question_id),
    findWrittenAnswer(trx, answerId),
  ])
  const items = answer.status === 'submitted' ? [] : ((await listAnswerItems(trx, [answerId])).get(answerId) ?? [])
  return {
    answer_id: answer.id,
    anonymous_code: anonymousCode(answer.id),
    text: answer.text,
    word_count: answer.word_count,
    pages: pages.map((page) => ({
      id: page.id,
      ...pageUrls(urlKey, page.id, clock.now()),
      width: page.width,
      height: page.height,
    })),
    rubric: toRubricDto(answer.question_id, written?.marks ?? 0, rubric),
    evaluation:
      answer.status === 'submitted'
        ? null
        : {
            items,
            adjustment: fromHundredths(answer.adjustment),
            comment:
              answer.comment_en === null && answer.comment_ne === null
                ? null
                : { en: answer.comment_en ?? '', ne: answer.comment_ne ?? '' },
            annotations: pages.flatMap((page) =>
              page.annotations === null ? [] : [{ page_id: page.id, doc: JSON.parse(page.annotations) as unknown }],
            ),
            rubric_revision: answer.rubric_revision,
            score: fromHundredths(answer.score_hundredths ?? 0),
          },
  }
}
