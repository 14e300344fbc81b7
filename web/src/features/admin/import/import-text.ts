// How a dry run's places, field paths, messages and errors read in the admin's language. The server's messages
// are English sentences with a stable code beside each; in Nepali the code picks the sentence.
import { importMessages, type ImportFormat, type ImportMessage } from '@quiz/contracts'
import type { TFunction } from 'i18next'
import { ApiError } from '../../../api/api-error'
import type { Language } from '../../../i18n/i18n'
import { formatNumber } from '../../../lib/format'
import { optionLetter } from '../../../lib/option-letters'

type ImportT = TFunction<'import'>

/** "Row 12" of a sheet, "Paragraph 40" of a Word file, "Line 7" of text: where the admin finds it in the file. */
export const placeLabel = (t: ImportT, format: ImportFormat, row: number, language: Language) =>
  t(`places.${format}`, { row: formatNumber(row, language, { useGrouping: false }) })

const languageOf = (part: string | undefined) => (part === 'en' || part === 'ne' ? part : null)

/**
 * A field path of the question (`text.ne`, `options.2.text.en`, `hint.en`, `topic`, `correct`) as words:
 * "Option C (Nepali)". `row` means the row as a whole and has no label.
 */
export function fieldLabel(t: ImportT, field: string, language: Language): string | null {
  const parts = field.split('.')
  let name: string | null
  let lang: 'en' | 'ne' | null = null
  if (parts[0] === 'row' || field === '') return null
  if (parts[0] === 'text') {
    name = t('fields.question')
    lang = languageOf(parts[1])
  } else if (parts[0] === 'options' && parts[1] !== undefined && /^\d+$/.test(parts[1])) {
    name = t('fields.option', { letter: optionLetter(Number(parts[1]), language) })
    lang = languageOf(parts[3] ?? parts[2])
  } else if (parts[0] === 'hint' || parts[0] === 'passage') {
    name = t(`fields.${parts[0]}`)
    lang = languageOf(parts[1])
  } else if (['options', 'topic', 'tags', 'difficulty', 'source', 'correct'].includes(parts[0] ?? '')) {
    name = t(`fields.${parts[0] as 'options' | 'topic' | 'tags' | 'difficulty' | 'source' | 'correct'}`)
  } else {
    name = field
  }
  return lang ? t('fields.with_language', { field: name, language: t(`fields.${lang}`) }) : name
}

/** In English the server's own sentence, which names specifics (the question type, the font); in Nepali by code. */
export const messageText = (t: ImportT, message: ImportMessage, language: Language) =>
  language === 'ne' ? t(`codes.${message.code}`) : message.message

/** A heading mapping's template column as words: `option_c_ne` is "Option C (Nepali)", `correct` is "Answer". */
export function columnLabel(t: ImportT, column: string, language: Language): string {
  const match = /^(question|hint|passage|option_([a-j]))_(en|ne)$/.exec(column)
  if (!match) return fieldLabel(t, column, language) ?? column
  const [, name, letter, lang] = match
  const field = letter
    ? `options.${letter.charCodeAt(0) - 97}.text.${lang}`
    : `${name === 'question' ? 'text' : name}.${lang}`
  return fieldLabel(t, field, language) ?? column
}

export interface DryRunError {
  text: string
  /** The server's own sentence, shown as it is beside a general one (it names the problem). */
  detail: string | null
  fields: [string, string[]][]
  /** A sheet's headings that lacked a question, option or answer column: the page offers to map them. */
  headings: string[] | null
}

/**
 * What went wrong with a dry run, in the admin's language; `fields` lists the fields the server refused. Known
 * causes have their sentence in either language; any other refusal of a file is said in the server's own words
 * (they name the problem: a PDF, a zip of another kind, a damaged part) after a general sentence in Nepali.
 */
export function dryRunErrorText(t: ImportT, error: unknown, language: Language): DryRunError {
  const none = { detail: null, fields: [] as [string, string[]][], headings: null }
  if (!(error instanceof ApiError)) return { ...none, text: t('errors.failed') }
  if (error.isNetworkError) return { ...none, text: t('errors.network') }
  if (error.status === 413 || error.code === 'payload_too_large') return { ...none, text: t('errors.too_large') }
  if (error.status === 429 && error.detail === importMessages.busy) return { ...none, text: t('errors.busy') }
  if (error.code === 'import_unreadable') {
    if (error.detail === importMessages.encrypted) return { ...none, text: t('errors.encrypted') }
    if (error.detail === importMessages.tooManyQuestions) return { ...none, text: t('errors.too_many') }
    if (error.detail === importMessages.tooLargeUnpacked) return { ...none, text: t('errors.too_large_unpacked') }
    if (error.detail === importMessages.documentTooLarge) return { ...none, text: t('errors.document_too_large') }
    if (error.detail === importMessages.sheetTooLarge) return { ...none, text: t('errors.sheet_too_large') }
    if (error.detail === importMessages.tooSlow) return { ...none, text: t('errors.too_slow') }
    const headings = Array.isArray(error.extra.headings)
      ? error.extra.headings.filter((heading): heading is string => typeof heading === 'string')
      : null
    if (headings && headings.length > 0)
      return { ...none, text: t('errors.no_header', { headings: headings.join(', ') }), headings }
    if (language === 'en') return { ...none, text: error.detail || t('errors.unreadable') }
    return { ...none, text: t('errors.unreadable_general'), detail: error.detail || null }
  }
  const errors = Object.entries(error.errors ?? {})
  if (errors.some(([path]) => path === 'file' || path === 'text')) return { ...none, text: t('errors.no_input') }
  if (errors.length > 0) return { ...none, text: t('errors.fields'), fields: errors }
  return { ...none, text: t('errors.failed'), detail: error.detail || null }
}

/** What went wrong with a commit: a forgotten dry run (404), a row no longer importable, a quiz gone. */
export function commitErrorText(
  t: ImportT,
  error: unknown,
  sentRows: readonly number[] | undefined,
  place: (row: number) => string,
): string {
  if (!(error instanceof ApiError)) return t('errors.commit_failed')
  if (error.isNetworkError) return t('errors.network')
  if (error.status === 404) return t('errors.expired')
  const paths = Object.keys(error.errors ?? {})
  // A quiz that is gone has its sentence; any other refusal at quiz_id (a paper over 500 questions) is the server's.
  const quizErrors = error.errors?.quiz_id ?? []
  if (quizErrors.some((message) => message !== importMessages.unknownQuiz)) return quizErrors.join(' ')
  if (paths.includes('quiz_id')) return t('errors.quiz')
  const rowPath = paths.find((path) => /^rows\.\d+$/.test(path))
  if (rowPath) {
    const index = Number(rowPath.split('.')[1])
    const row = sentRows?.[index]
    if (row !== undefined) return t('errors.row', { place: place(row) })
  }
  return error.detail ? `${t('errors.commit_failed')} ${error.detail}` : t('errors.commit_failed')
}
