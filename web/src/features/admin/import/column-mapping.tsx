import { importColumns } from '@quiz/contracts'
import { useId, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '../../../components/ui/button'
import { useLanguage } from '../../../i18n/use-bilingual'
import { columnLabel } from './import-text'
import './import.i18n'

interface ColumnMappingProps {
  /** The sheet's headings the server listed when it found no question or option column among them. */
  headings: readonly string[]
  mapping: Readonly<Record<string, string>>
  onChange: (mapping: Record<string, string>) => void
  /** Reads the file again with the mapping (the upload's `columns`). */
  onSubmit: () => void
  pending: boolean
}

/** A template column for each heading of the sheet, chosen by the admin where the server did not understand them. */
export function ColumnMapping({ headings, mapping, onChange, onSubmit, pending }: ColumnMappingProps) {
  const { t } = useTranslation('import')
  const language = useLanguage()
  const id = useId()
  const taken = new Set(Object.values(mapping))
  const choose = (heading: string, column: string) => {
    const next = { ...mapping }
    if (column) next[heading] = column
    else delete next[heading]
    onChange(next)
  }
  const submit = (event: FormEvent) => {
    event.preventDefault()
    onSubmit()
  }
  return (
    <form className="card import-columns" onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('columns.title')}</h2>
      <p>{t('columns.intro')}</p>
      <div className="import-columns__grid">
        {headings.map((heading, index) => (
          <div className="field" key={`${index}-${heading}`}>
            <label htmlFor={`${id}-${index}`}>{heading}</label>
            <select
              id={`${id}-${index}`}
              value={mapping[heading] ?? ''}
              onChange={(event) => choose(heading, event.target.value)}
            >
              <option value="">{t('columns.unused')}</option>
              {importColumns.map((column) => (
                // A template column is given to one heading only: the server refuses it twice.
                <option key={column} value={column} disabled={taken.has(column) && mapping[heading] !== column}>
                  {columnLabel(t, column, language)}
                </option>
              ))}
            </select>
          </div>
        ))}
      </div>
      <p className="actions">
        <Button type="submit" variant="primary" disabled={pending || Object.keys(mapping).length === 0}>
          {pending ? t('checking') : t('columns.apply')}
        </Button>
      </p>
    </form>
  )
}
