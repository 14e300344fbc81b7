import { importFixCodes } from '@quiz/contracts'
import { useTranslation } from 'react-i18next'
import { useLanguage } from '../../../i18n/use-bilingual'
import { formatNumber } from '../../../lib/format'
import type { ImportDryRun, ImportMessage, ImportMessageCode, ImportRow } from './import.api'
import { fieldLabel, messageText, placeLabel } from './import-text'
import './import.i18n'

// What the import changed to bring a row in (a `fixed` row's messages): shown apart from its problems, so that an
// admin sees each change (a font converted, partial credit dropped, maths delimiters rewritten) before committing.
const changeCodes: ReadonlySet<ImportMessageCode> = new Set<ImportMessageCode>(importFixCodes)
export const isChange = (message: ImportMessage) => changeCodes.has(message.code)

/**
 * The same sentence for several fields (a font converted in the question and each option) is one line naming
 * them all, so a converted row does not repeat itself four times.
 */
export function messageLines(
  messages: readonly ImportMessage[],
  say: (message: ImportMessage) => { field: string | null; text: string },
): { fields: string[]; text: string }[] {
  const lines: { fields: string[]; text: string }[] = []
  for (const message of messages) {
    const { field, text } = say(message)
    const same = lines.find((line) => line.text === text)
    if (same) {
      if (field && !same.fields.includes(field)) same.fields.push(field)
    } else lines.push({ fields: field ? [field] : [], text })
  }
  return lines
}

/** The row's reasons and what it duplicates. */
export function RowMessages({ row, format }: { row: ImportRow; format: ImportDryRun['format'] }) {
  const { t } = useTranslation('import')
  const language = useLanguage()
  const duplicate = row.duplicate_of
  const lines = messageLines(
    row.messages.filter((message) => !isChange(message)),
    (message) => ({
      field: fieldLabel(t, message.field, language),
      text: messageText(t, message, language),
    }),
  )
  return (
    <>
      {lines.length > 0 && (
        <ul className="import-messages">
          {lines.map(({ fields, text }, index) => (
            <li key={index}>
              {fields.length > 0 && <strong>{fields.join(', ')}: </strong>}
              {text}
            </li>
          ))}
        </ul>
      )}
      {duplicate && duplicate.question_id !== null && (
        <p className="import-duplicate">
          {t('duplicate_of.bank', { id: formatNumber(duplicate.question_id, language, { useGrouping: false }) })}
        </p>
      )}
      {duplicate && duplicate.question_id === null && duplicate.row !== null && (
        <p className="import-duplicate">
          {t('duplicate_of.row', { place: placeLabel(t, format, duplicate.row, language) })}
        </p>
      )}
    </>
  )
}

/** Each legacy-font conversion of the row: as typed beside the Unicode it became, for the admin to check. */
export function Conversions({ row }: { row: ImportRow }) {
  const { t } = useTranslation('import')
  const language = useLanguage()
  if (row.converted.length === 0) return null
  return (
    <table className="import-conversions">
      <caption>{t('table.converted')}</caption>
      <thead>
        <tr>
          <th scope="col">{t('table.field')}</th>
          <th scope="col">{t('table.original')}</th>
          <th scope="col">{t('table.unicode')}</th>
        </tr>
      </thead>
      <tbody>
        {row.converted.map((conversion, index) => (
          <tr key={index}>
            <th scope="row">{fieldLabel(t, conversion.field, language) ?? conversion.field}</th>
            {/* The original is Latin letters (how Preeti stores Nepali): not marked as Nepali. */}
            <td className="import-conversions__original">{conversion.original}</td>
            <td lang="ne">{conversion.unicode}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

/** What was changed on the way in, field by field; the conversions' own table follows it. */
export function RowChanges({ row }: { row: ImportRow }) {
  const { t } = useTranslation('import')
  const language = useLanguage()
  const lines = messageLines(row.messages.filter(isChange), (message) => ({
    field: fieldLabel(t, message.field, language),
    text: messageText(t, message, language),
  }))
  if (lines.length === 0) return null
  return (
    <div className="import-changes">
      <p className="import-changes__title">{t('changes.title')}</p>
      <ul>
        {lines.map(({ fields, text }, index) => (
          <li key={index}>
            {fields.length > 0 && <strong>{fields.join(', ')}: </strong>}
            {text}
          </li>
        ))}
      </ul>
    </div>
  )
}
