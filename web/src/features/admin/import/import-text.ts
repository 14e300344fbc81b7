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
  } else if (parts[0] === 'hint') {
    name = t('fields.hint')
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

/**
 * What went wrong with a dry run, in the admin's language; `fields` lists the defaults the server refused. A file
 * the server cannot read is said in its own words in English (they name the problem: a PDF, a zip of another kind,
 * a damaged part); in Nepali the known causes have their sentence and the rest a general one.
 */
export function dryRunErrorText(
  t: ImportT,
  error: unknown,
  language: Language,
): { text: string; fields: [string, string[]][] } {
  const none: [string, string[]][] = []
  if (!(error instanceof ApiError)) return { text: t('errors.failed'), fields: none }
  if (error.isNetworkError) return { text: t('errors.network'), fields: none }
  if (error.status === 413 || error.code === 'payload_too_large') return { text: t('errors.too_large'), fields: none }
  if (error.code === 'import_unreadable') {
    if (error.detail === importMessages.encrypted) return { text: t('errors.encrypted'), fields: none }
    if (error.detail === importMessages.tooManyQuestions) return { text: t('errors.too_many'), fields: none }
    if (error.detail === importMessages.tooLargeUnpacked) return { text: t('errors.too_large_unpacked'), fields: none }
    return { text: language === 'en' && error.detail ? error.detail : t('errors.unreadable'), fields: none }
  }
  const errors = Object.entries(error.errors ?? {})
  if (errors.some(([path]) => path === 'file' || path === 'text')) return { text: t('errors.no_input'), fields: none }
  if (errors.length > 0) return { text: t('errors.fields'), fields: errors }
  return { text: t('errors.failed'), fields: none }
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
  if (paths.includes('quiz_id')) return t('errors.quiz')
  const rowPath = paths.find((path) => /^rows\.\d+$/.test(path))
  if (rowPath) {
    const index = Number(rowPath.split('.')[1])
    const row = sentRows?.[index]
    if (row !== undefined) return t('errors.row', { place: place(row) })
  }
  return t('errors.commit_failed')
}
