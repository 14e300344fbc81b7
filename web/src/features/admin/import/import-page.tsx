import { ImportFormatSchema, LegacyFontChoiceSchema } from '@quiz/contracts'
import { useQuery } from '@tanstack/react-query'
import { useId, useState, type FormEvent, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { Alert } from '../../../components/ui/alert'
import { Button } from '../../../components/ui/button'
import { Loading } from '../../../components/ui/loading'
import { useBilingual, useLanguage } from '../../../i18n/use-bilingual'
import { formatNumber } from '../../../lib/format'
import { paths } from '../../../lib/paths'
import { AdminNav } from '../admin-nav'
import { adminQueries } from '../quizzes/quizzes.api'
import {
  BANK_IDS_LIMIT,
  importableCount,
  useCommitImport,
  useDryRun,
  type ImportDryRun,
  type ImportFormat,
  type ImportInput,
  type LegacyFontChoice,
} from './import.api'
import { ImportGuide } from './import-guide'
import { FilterChips, isImportable, RowsTable, type StatusFilter } from './import-rows'
import { commitErrorText, dryRunErrorText, placeLabel } from './import-text'
import '../admin.css'
import './import.css'
import './import.i18n'

const formats = ImportFormatSchema.options
const legacyFonts = LegacyFontChoiceSchema.options
const difficulties = ['easy', 'medium', 'hard'] as const

/** /admin/import: a file or pasted text, its dry run row by row, and the commit into the bank (or a quiz). */
export function Component() {
  const { t } = useTranslation('import')
  const language = useLanguage()
  const id = useId()
  const [mode, setMode] = useState<'file' | 'paste'>('file')
  const [file, setFile] = useState<File | null>(null)
  const [text, setText] = useState('')
  const [format, setFormat] = useState<ImportFormat | ''>('')
  const [legacyFont, setLegacyFont] = useState<LegacyFontChoice>('auto')
  const [defaults, setDefaults] = useState({ topic: '', tags: '', difficulty: '', source: '' })
  const [missingInput, setMissingInput] = useState(false)
  const dryRun = useDryRun()

  const input = (patch: Partial<ImportInput> = {}): ImportInput | null => {
    const content = mode === 'file' ? (file ? { file } : null) : text.trim() ? { text } : null
    if (!content) return null
    return { content, format, legacyFont, ...defaults, ...patch }
  }
  const run = (patch: Partial<ImportInput> = {}) => {
    const next = input(patch)
    setMissingInput(next === null)
    if (next) dryRun.mutate(next, { onSuccess: (result) => setFormat(result.format) })
  }
  const submit = (event: FormEvent) => {
    event.preventDefault()
    run()
  }
  // A new file or text is another input: its format is guessed afresh and the old dry run no longer applies.
  const newInput = () => {
    setFormat('')
    dryRun.reset()
  }
  // How to read the input changed: read it again at once, so what is shown always matches the settings.
  const rerunWith = (patch: Pick<Partial<ImportInput>, 'format' | 'legacyFont'>) => {
    if (dryRun.data || dryRun.isError) run(patch)
  }

  const error = dryRun.isError ? dryRunErrorText(t, dryRun.error, language) : null
  const textAvailable = mode === 'paste'
  const formatChoices = formats.filter((choice) => (textAvailable ? choice !== 'xlsx' && choice !== 'docx' : true))

  return (
    <div className="admin import">
      <AdminNav />
      <h1>{t('title')}</h1>
      <p>{t('intro')}</p>
      <p>
        <Link to={paths.adminFontConverter()}>{t('converter_link')}</Link>
      </p>

      <form className="card import-form" onSubmit={submit} noValidate>
        <fieldset className="import-mode">
          <legend>{t('input.legend')}</legend>
          {(['file', 'paste'] as const).map((choice) => (
            <label key={choice} className="checkbox">
              <input
                type="radio"
                name={`${id}-mode`}
                value={choice}
                checked={mode === choice}
                onChange={() => {
                  setMode(choice)
                  newInput()
                }}
              />
              {t(`input.${choice}`)}
            </label>
          ))}
        </fieldset>
        {mode === 'file' ? (
          <div className="field">
            <span className="label" id={`${id}-file-label`}>
              {t('input.file_label')}
            </span>
            {/* The browser's own file button speaks the browser's language; this one speaks the admin's. */}
            <span className="import-file">
              <label className="btn import-file__button">
                <input
                  type="file"
                  className="visually-hidden"
                  accept=".xlsx,.csv,.docx,.txt,.xml,.gift"
                  aria-labelledby={`${id}-file-label`}
                  aria-describedby={`${id}-file-name ${id}-file-hint`}
                  aria-invalid={missingInput || undefined}
                  onChange={(event) => {
                    setFile(event.target.files?.[0] ?? null)
                    newInput()
                  }}
                />
                {t('input.choose')}
              </label>
              <span id={`${id}-file-name`}>{file ? file.name : t('input.no_file')}</span>
            </span>
            <span id={`${id}-file-hint`} className="field__hint">
              {t('input.file_hint')}
            </span>
          </div>
        ) : (
          <div className="field">
            <label htmlFor={`${id}-text`}>{t('input.text_label')}</label>
            <textarea
              id={`${id}-text`}
              rows={10}
              value={text}
              aria-describedby={`${id}-text-hint`}
              aria-invalid={missingInput || undefined}
              onChange={(event) => {
                setText(event.target.value)
                if (dryRun.data) newInput()
              }}
            />
            <span id={`${id}-text-hint`} className="field__hint">
              {t('input.text_hint')}
            </span>
          </div>
        )}
        {missingInput && <p className="field__error">{t('errors.no_input')}</p>}

        <div className="import-settings">
          <div className="field">
            <label htmlFor={`${id}-format`}>{t('settings.format')}</label>
            <select
              id={`${id}-format`}
              value={format}
              onChange={(event) => {
                const next = event.target.value as ImportFormat | ''
                setFormat(next)
                rerunWith({ format: next })
              }}
            >
              <option value="">{t('settings.format_auto')}</option>
              {formatChoices.map((choice) => (
                <option key={choice} value={choice}>
                  {t(`formats.${choice}`)}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={`${id}-font`}>{t('settings.legacy_font')}</label>
            <select
              id={`${id}-font`}
              value={legacyFont}
              aria-describedby={`${id}-font-hint`}
              onChange={(event) => {
                const next = event.target.value as LegacyFontChoice
                setLegacyFont(next)
                rerunWith({ legacyFont: next })
              }}
            >
              {legacyFonts.map((choice) => (
                <option key={choice} value={choice}>
                  {t(`fonts.${choice}`)}
                </option>
              ))}
            </select>
            <span id={`${id}-font-hint`} className="field__hint">
              {t('settings.legacy_font_hint')}
            </span>
          </div>
        </div>

        <fieldset className="import-defaults">
          <legend>{t('defaults.legend')}</legend>
          <div className="field">
            <label htmlFor={`${id}-topic`}>{t('defaults.topic')}</label>
            <input
              id={`${id}-topic`}
              value={defaults.topic}
              onChange={(event) => setDefaults({ ...defaults, topic: event.target.value })}
            />
          </div>
          <div className="field">
            <label htmlFor={`${id}-tags`}>{t('defaults.tags')}</label>
            <input
              id={`${id}-tags`}
              value={defaults.tags}
              aria-describedby={`${id}-tags-hint`}
              onChange={(event) => setDefaults({ ...defaults, tags: event.target.value })}
            />
            <span id={`${id}-tags-hint`} className="field__hint">
              {t('defaults.tags_hint')}
            </span>
          </div>
          <div className="field">
            <label htmlFor={`${id}-difficulty`}>{t('defaults.difficulty')}</label>
            <select
              id={`${id}-difficulty`}
              value={defaults.difficulty}
              onChange={(event) => setDefaults({ ...defaults, difficulty: event.target.value })}
            >
              <option value="">{t('defaults.difficulty_none')}</option>
              {difficulties.map((choice) => (
                <option key={choice} value={choice}>
                  {t(`difficulty.${choice}`)}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={`${id}-source`}>{t('defaults.source')}</label>
            <input
              id={`${id}-source`}
              value={defaults.source}
              aria-describedby={`${id}-source-hint`}
              onChange={(event) => setDefaults({ ...defaults, source: event.target.value })}
            />
            <span id={`${id}-source-hint`} className="field__hint">
              {t('defaults.source_hint')}
            </span>
          </div>
        </fieldset>

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
          {error.fields.length > 0 && (
            <ul>
              {error.fields.map(([path, messages]) => (
                <li key={path}>
                  {path}: {messages.join(' ')}
                </li>
              ))}
            </ul>
          )}
        </Alert>
      )}
      {/* Keyed by the dry run: a new one starts with all rows shown and every importable row ticked. */}
      {dryRun.data && !dryRun.isPending && <DryRunResult key={dryRun.data.import_id} dryRun={dryRun.data} />}

      <ImportGuide />
    </div>
  )
}

/** The dry run: its summary (announced), the status chips, the rows, and the commit. */
function DryRunResult({ dryRun }: { dryRun: ImportDryRun }) {
  const { t } = useTranslation('import')
  const language = useLanguage()
  const n = (value: number) => formatNumber(value, language)
  const [filter, setFilter] = useState<StatusFilter>('all')
  const [page, setPage] = useState(1)
  const [excluded, setExcluded] = useState<ReadonlySet<number>>(new Set())
  const { summary } = dryRun
  return (
    <section className="import-result" aria-labelledby="import-result-title">
      <h2 id="import-result-title" className="visually-hidden">
        {t('table.caption')}
      </h2>
      <p className="import-summary" role="status" aria-live="polite">
        {t('settings.detected', { format: t(`formats.${dryRun.format}`) })}{' '}
        {t('summary', {
          total: n(dryRun.rows.length),
          ok: n(summary.ok),
          fixed: n(summary.fixed),
          rejected: n(summary.rejected),
          duplicate: n(summary.duplicate),
        })}
      </p>
      <FilterChips
        dryRun={dryRun}
        filter={filter}
        onFilter={(next) => {
          setFilter(next)
          setPage(1)
        }}
      />
      <CommitPanel dryRun={dryRun} excluded={excluded}>
        {(locked) => (
          <RowsTable
            dryRun={dryRun}
            filter={filter}
            page={page}
            onPage={setPage}
            excluded={excluded}
            locked={locked}
            onExclude={(row, out) =>
              setExcluded((current) => {
                const next = new Set(current)
                if (out) next.add(row)
                else next.delete(row)
                return next
              })
            }
          />
        )}
      </CommitPanel>
    </section>
  )
}

interface CommitPanelProps {
  dryRun: ImportDryRun
  excluded: ReadonlySet<number>
  children: (locked: boolean) => ReactNode
}

/** "Import N questions", optionally into a quiz; then what was imported and the way to it in the bank. */
function CommitPanel({ dryRun, excluded, children }: CommitPanelProps) {
  const { t } = useTranslation('import')
  const pick = useBilingual()
  const language = useLanguage()
  const id = useId()
  const n = (value: number) => formatNumber(value, language)
  const quizzes = useQuery(adminQueries.list())
  const commit = useCommitImport()
  const [quizId, setQuizId] = useState('')
  const [sentRows, setSentRows] = useState<number[] | undefined>()
  const chosen = dryRun.rows.filter((row) => isImportable(row) && !excluded.has(row.row)).map((row) => row.row)
  const count = excluded.size === 0 ? importableCount(dryRun) : chosen.length
  const quizTitle = quizzes.data?.find((quiz) => String(quiz.id) === quizId)?.title

  const send = () => {
    // Every importable row is the server's default; only a narrowed choice is named.
    const rows = excluded.size === 0 ? undefined : chosen
    setSentRows(rows)
    commit.mutate({ importId: dryRun.import_id, quizId: quizId ? Number(quizId) : null, rows })
  }
  const result = commit.data
  const ids = result?.question_ids ?? []

  const panel = (
    <div className="card import-commit">
      {importableCount(dryRun) === 0 ? (
        <p>{t('commit.nothing')}</p>
      ) : (
        <>
          <div className="field">
            <label htmlFor={`${id}-quiz`}>{t('commit.quiz')}</label>
            <select
              id={`${id}-quiz`}
              value={quizId}
              disabled={result !== undefined}
              onChange={(event) => setQuizId(event.target.value)}
            >
              <option value="">{t('commit.no_quiz')}</option>
              {quizzes.data?.map((quiz) => (
                <option key={quiz.id} value={quiz.id}>
                  {pick(quiz.title)}
                </option>
              ))}
            </select>
          </div>
          {result === undefined && (
            <Button variant="primary" disabled={commit.isPending || count === 0} onClick={send}>
              {commit.isPending ? t('commit.busy') : t('commit.button', { count, n: n(count) })}
            </Button>
          )}
        </>
      )}
      {commit.isError && (
        <Alert kind="error">
          {commitErrorText(t, commit.error, sentRows, (row) => placeLabel(t, dryRun.format, row, language))}
        </Alert>
      )}
      {result && (
        <Alert kind="success">
          {t('commit.done', { imported: n(result.imported), duplicates: n(result.duplicates) })}
          {quizTitle && result.imported > 0 && ` ${t('commit.done_quiz', { quiz: pick(quizTitle) })}`}
          {ids.length > 0 && (
            <>
              {' '}
              <Link to={paths.adminBankIds(ids.slice(0, BANK_IDS_LIMIT))}>
                {ids.length > BANK_IDS_LIMIT
                  ? t('commit.open_bank_first', { n: n(BANK_IDS_LIMIT) })
                  : t('commit.open_bank')}
              </Link>
            </>
          )}
        </Alert>
      )}
    </div>
  )
  return (
    <>
      {panel}
      {children(result !== undefined)}
    </>
  )
}
