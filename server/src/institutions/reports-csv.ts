import { Readable } from 'node:stream'
import type { AttemptSelection } from '@quiz/contracts'
import type { AppContext } from '../context'
import { toIso } from '../lib/clock'
import { toScore } from '../questions/scoring'
import { csvRow, UTF8_BOM } from './csv'
import {
  findAttemptsWithLearners,
  listAllOptions,
  listAnswerPicksOfAttempts,
  listAnswerValuesOfAttempts,
  listChosenAttemptIds,
  listCurrentQuestions,
  listWrittenMarksOfAttempts,
  type ReportAttemptRow,
} from './reports.repository'

/** Rows fetched per query while the CSV streams: small enough for every database's parameter limit. */
export const CSV_BATCH = 200

export const CSV_HEADER = [
  'attempt_id',
  'username',
  'full_name',
  'phone_number',
  'attempt_number',
  'score',
  'correct',
  'incorrect',
  'unanswered',
  'started_at',
  'completed_at',
  'duration_seconds',
  'late',
  'mode',
] as const

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'

export const durationSeconds = (row: Pick<ReportAttemptRow, 'started_at' | 'finished_at'>) =>
  Math.max(0, Math.round((row.finished_at! - row.started_at) / 1000))

/** Pulled batch by batch as the socket drains, so 50,000 attempts never sit in memory. */
export async function attemptsCsv(
  { db, dialect }: AppContext['database'],
  quizId: number,
  which: AttemptSelection,
): Promise<Readable> {
  const [questions, options, ids] = await Promise.all([
    listCurrentQuestions(db, quizId),
    listAllOptions(db, quizId),
    listChosenAttemptIds(db, quizId, which),
  ])
  // An option's letter is its place in its own revision's authored order, whatever order the attempt showed.
  const letters = new Map<number, string>()
  let revision = -1
  let index = 0
  for (const option of options) {
    if (option.revision_id !== revision) [revision, index] = [option.revision_id, 0]
    letters.set(option.id, LETTERS[index++]!)
  }
  const questionIds = questions.map((question) => question.id)
  const columnOf = new Map(questionIds.map((id, column) => [id, column]))
  const header = csvRow([...CSV_HEADER, ...questionIds.map((_, i) => `Q${i + 1}`)])

  async function* lines() {
    yield Buffer.from(UTF8_BOM + header)
    for (let start = 0; start < ids.length; start += CSV_BATCH) {
      const batch = ids.slice(start, start + CSV_BATCH)
      const [rows, answers, writtenMarks, values] = await Promise.all([
        findAttemptsWithLearners(db, batch),
        listAnswerPicksOfAttempts(db, dialect, batch),
        listWrittenMarksOfAttempts(db, batch),
        listAnswerValuesOfAttempts(db, batch),
      ])
      const valuesById = new Map<number, typeof values>()
      for (const value of values) valuesById.set(value.attempt_id, [...(valuesById.get(value.attempt_id) ?? []), value])
      const marksById = new Map<number, typeof writtenMarks>()
      for (const marks of writtenMarks)
        marksById.set(marks.attempt_id, [...(marksById.get(marks.attempt_id) ?? []), marks])
      const byId = new Map(rows.map((row) => [row.id, row]))
      const picksById = new Map(answers.map((row) => [row.attempt_id, row.picks]))
      let text = ''
      for (const id of batch) {
        // A learner deleted since the ids were read takes their attempts along: skip, don't fail mid-download.
        const row = byId.get(id)
        if (!row) continue
        const cells = new Array<string>(questionIds.length).fill('')
        for (const pick of picksById.get(id)?.split(',') ?? []) {
          const [questionId, optionId] = pick.split(':').map(Number)
          const column = columnOf.get(questionId!)
          if (column !== undefined) cells[column] = letters.get(optionId!) ?? ''
        }
        // A multiple answer as its letters, `A;C`; a numeric one as the number typed, in its shortest form.
        for (const answer of valuesById.get(id) ?? []) {
          const column = columnOf.get(answer.question_id)
          if (column === undefined) continue
          const value = JSON.parse(answer.value) as number[] | string
          cells[column] = Array.isArray(value)
            ? value
                .map((optionId) => letters.get(optionId) ?? '')
                .sort()
                .join(';')
            : value
        }
        for (const marks of marksById.get(id) ?? []) {
          const column = columnOf.get(marks.question_id)
          if (column !== undefined) cells[column] = String(toScore(marks.score_hundredths ?? 0))
        }
        text += csvRow([
          row.id,
          row.username,
          row.full_name,
          row.phone_number,
          row.attempt_number,
          toScore(row.score_hundredths!),
          row.correct,
          row.incorrect,
          row.unanswered,
          toIso(row.started_at),
          toIso(row.finished_at!),
          durationSeconds(row),
          row.late === 1,
          row.mode,
          ...cells,
        ])
      }
      yield Buffer.from(text)
    }
  }
  return Readable.from(lines(), { objectMode: false })
}
