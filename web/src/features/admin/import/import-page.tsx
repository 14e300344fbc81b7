import { useId, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { Alert } from '../../../components/ui/alert'
import { Button } from '../../../components/ui/button'
import { Loading } from '../../../components/ui/loading'
import { useLanguage } from '../../../i18n/use-bilingual'
import { paths } from '../../../lib/paths'
import { AdminNav } from '../admin-nav'
import { useDryRun, type ImportFormat, type ImportInput, type LegacyFontChoice } from './import.api'
import { ColumnMapping } from './column-mapping'
import { DryRunResult } from './dry-run-result'
import { ImportGuide } from './import-guide'
import { ImportInputFields, type InputMode } from './import-input'
import { DefaultsFields, ReadingSettings, type ImportDefaults } from './import-settings'
import { dryRunErrorText } from './import-text'
import '../admin.css'
import './import.css'
import './import.i18n'

/** /admin/import: a file or pasted text, its dry run row by row, and the commit into the bank (or a quiz). */
export function Component() {
  const { t } = useTranslation('import')
  const language = useLanguage()
  const id = useId()
  const [mode, setMode] = useState<InputMode>('file')
  const [file, setFile] = useState<File | null>(null)
  const [text, setText] = useState('')
  const [format, setFormat] = useState<ImportFormat | ''>('')
  const [legacyFont, setLegacyFont] = useState<LegacyFontChoice>('auto')
  const [defaults, setDefaults] = useState<ImportDefaults>({ topic: '', tags: '', difficulty: '', source: '' })
  const [columns, setColumns] = useState<Record<string, string>>({})
  // The headings of a sheet the server could not read: kept while the admin maps them and tries again.
  const [headings, setHeadings] = useState<string[] | null>(null)
  const [missingInput, setMissingInput] = useState(false)
  const dryRun = useDryRun()

  const input = (patch: Partial<ImportInput> = {}): ImportInput | null => {
    const content = mode === 'file' ? (file ? { file } : null) : text.trim() ? { text } : null
    if (!content) return null
    return { content, format, legacyFont, ...defaults, columns, ...patch }
  }
  const run = (patch: Partial<ImportInput> = {}) => {
    const next = input(patch)
    setMissingInput(next === null)
    if (next)
      dryRun.mutate(next, {
        onSuccess: (result) => setFormat(result.format),
        onError: (error) => {
          const found = dryRunErrorText(t, error, language).headings
          if (found) setHeadings(found)
        },
      })
  }
  const submit = (event: FormEvent) => {
    event.preventDefault()
    run()
  }
  // A new file or text is another input: its format is guessed afresh and the old dry run no longer applies.
  const newInput = () => {
    setFormat('')
    setColumns({})
    setHeadings(null)
    dryRun.reset()
  }
  // How to read the input changed: read it again at once, so what is shown always matches the settings.
  const rerunWith = (patch: Pick<Partial<ImportInput>, 'format' | 'legacyFont'>) => {
    if (dryRun.data || dryRun.isError) run(patch)
  }

  const error = dryRun.isError ? dryRunErrorText(t, dryRun.error, language) : null

  return (
    <div className="admin import">
      <AdminNav />
      <h1>{t('title')}</h1>
      <p>{t('intro')}</p>
      <p>
        <Link to={paths.adminFontConverter()}>{t('converter_link')}</Link>
      </p>

      <form className="card import-form" onSubmit={submit} noValidate>
        <ImportInputFields
          id={id}
          mode={mode}
          onMode={(next) => {
            setMode(next)
            newInput()
          }}
          file={file}
          onFile={(next) => {
            setFile(next)
            newInput()
          }}
          text={text}
          onText={(next) => {
            setText(next)
            if (dryRun.data || headings) newInput()
          }}
          missing={missingInput}
        />
        <ReadingSettings
          id={id}
          format={format}
          onFormat={(next) => {
            setFormat(next)
            rerunWith({ format: next })
          }}
          legacyFont={legacyFont}
          onLegacyFont={(next) => {
            setLegacyFont(next)
            rerunWith({ legacyFont: next })
          }}
          pasted={mode === 'paste'}
        />
        <DefaultsFields id={id} defaults={defaults} onChange={setDefaults} />
        <p className="actions">
          <Button type="submit" variant="primary" disabled={dryRun.isPending}>
            {dryRun.isPending ? t('checking') : t('check')}
          </Button>
        </p>
      </form>

      {dryRun.isPending && <Loading label={t('checking')} />}
      {error && (
        <Alert kind="error">
          {error.text}
          {error.detail && <span className="import-error__detail"> {error.detail}</span>}
          {error.fields.length > 0 && (
            <ul>
              {error.fields.map(([path, messages]) => (
                <li key={path}>
                  {path === 'columns' ? t('columns.title') : path}: {messages.join(' ')}
                </li>
              ))}
            </ul>
          )}
        </Alert>
      )}
      {headings && !dryRun.data && (
        <ColumnMapping
          headings={headings}
          mapping={columns}
          onChange={setColumns}
          onSubmit={() => run()}
          pending={dryRun.isPending}
        />
      )}
      {/* Keyed by the dry run: a new one starts with all rows shown and every importable row ticked. */}
      {dryRun.data && !dryRun.isPending && <DryRunResult key={dryRun.data.import_id} dryRun={dryRun.data} />}

      <ImportGuide />
    </div>
  )
}
