import { useId, useState } from 'react'
import { FormProvider, useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { Alert } from '../../../components/ui/alert'
import { Button } from '../../../components/ui/button'
import { Loading } from '../../../components/ui/loading'
import { useLanguage } from '../../../i18n/use-bilingual'
import { paths } from '../../../lib/paths'
import { AdminNav } from '../admin-nav'
import { useDryRun } from './import.api'
import { ColumnMapping } from './column-mapping'
import { DryRunResult } from './dry-run-result'
import { ImportGuide } from './import-guide'
import { emptyImport, importResolver, inputOf, type ImportValues } from './import-form'
import { ImportInputFields } from './import-input'
import { DefaultsFields, ReadingSettings } from './import-settings'
import { dryRunErrorText } from './import-text'
import '../admin.css'
import './import.css'
import './import.i18n'

/** /admin/import: a file or pasted text, its dry run row by row, and the commit into the bank (or a quiz). */
export function Component() {
  const { t } = useTranslation('import')
  const language = useLanguage()
  const id = useId()
  const form = useForm<ImportValues>({
    defaultValues: emptyImport,
    resolver: importResolver,
    // "Choose a file or paste some text" stays until Check is pressed again, not only until the next keystroke.
    reValidateMode: 'onSubmit',
    shouldFocusError: false,
  })
  const [columns, setColumns] = useState<Record<string, string>>({})
  // The headings of a sheet the server could not read: kept while the admin maps them and tries again.
  const [headings, setHeadings] = useState<string[] | null>(null)
  const dryRun = useDryRun()

  const run = form.handleSubmit((values) => {
    const input = inputOf(values, columns)
    if (!input) return
    dryRun.mutate(input, {
      onSuccess: (result) => form.setValue('format', result.format),
      onError: (error) => {
        const found = dryRunErrorText(t, error, language).headings
        if (found) setHeadings(found)
      },
    })
  })
  // A new file or text is another input: its format is guessed afresh and the old dry run no longer applies.
  const newInput = () => {
    form.setValue('format', '')
    setColumns({})
    setHeadings(null)
    dryRun.reset()
  }
  // How to read the input changed: read it again at once, so what is shown always matches the settings.
  const rerun = () => {
    if (dryRun.data || dryRun.isError) void run()
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

      <FormProvider {...form}>
        <form className="card import-form" onSubmit={run} noValidate>
          <ImportInputFields
            id={id}
            onNewInput={newInput}
            onTextEdit={() => {
              if (dryRun.data || headings) newInput()
            }}
          />
          <ReadingSettings id={id} onChange={rerun} />
          <DefaultsFields id={id} />
          <p className="actions">
            <Button type="submit" variant="primary" disabled={dryRun.isPending}>
              {dryRun.isPending ? t('checking') : t('check')}
            </Button>
          </p>
        </form>
      </FormProvider>

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
          onSubmit={() => void run()}
          pending={dryRun.isPending}
        />
      )}
      {/* Keyed by the dry run: a new one starts with all rows shown and every importable row ticked. */}
      {dryRun.data && !dryRun.isPending && <DryRunResult key={dryRun.data.import_id} dryRun={dryRun.data} />}

      <ImportGuide />
    </div>
  )
}
