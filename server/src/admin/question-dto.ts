import { fromHundredths, type AdminQuestion } from '@quiz/contracts'
import type { QuestionRevisionRow } from '../db/schema'
import { editorIsCorrect, type AnswerKey } from '../questions/answer-keys'
import {
  modelAnswerOf,
  numericKeyOf,
  optionView,
  richTextsOf,
  toImage,
  type RevisionWithOptions,
} from '../questions/question-revisions.repository'
import { toQuestionKey } from './question-key'

export function writtenFacts(revision: QuestionRevisionRow) {
  const written = revision.type === 'written'
  return {
    type: revision.type,
    // A numeric question's key and decimals (API.md "Question types"); null for the other types.
    answer: revision.type === 'numeric' ? numericKeyOf(revision) : null,
    decimals: revision.type === 'numeric' ? revision.decimals : null,
    marks: written && revision.marks !== null ? fromHundredths(revision.marks) : null,
    word_limit: written ? revision.word_limit : null,
    model_answer: written && revision.model_answer_en !== null ? modelAnswerOf(revision, 'admin') : null,
  }
}

// `key` is the revision's decided key, which the options' `is_correct` follow where it names one (./question-key.ts).
export function toQuestionDto(
  questionId: number,
  revision: RevisionWithOptions,
  key: AnswerKey | undefined,
): AdminQuestion {
  const texts = richTextsOf(revision, 'admin')
  return {
    id: questionId,
    revision_id: revision.id,
    text: texts.text,
    hint: texts.hint,
    topic: revision.topic,
    image: toImage(revision, texts.caption, 'svg'),
    options: revision.options.map((option) => ({
      ...optionView(option, 'admin', 'svg'),
      is_correct: editorIsCorrect(option.id, option.is_correct === 1, key),
    })),
    key: toQuestionKey(key),
    ...writtenFacts(revision),
  }
}
