import { useQuery } from '@tanstack/react-query'
import { useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '../../../components/ui/button'
import { RichPreview, RichText } from '../../../components/ui/rich-text'
import { scriptLang, useLanguage } from '../../../i18n/use-bilingual'
import { formatNumber } from '../../../lib/format'
import { PLATFORM_BANK_PAGE_SIZE, platformBankQueries, type BankList, type PlatformBankBase } from './platform-bank.api'
import '../../../i18n/platform.i18n'
import './platform-bank.css'

type Row = BankList['results'][number]

/**
 * The platform's bank as a list of cards that fit a phone: search, paging, and a preview that opens in place.
 * `action` adds a row's button (an institute admin's "Copy to my bank"); the platform admins' view has none.
 */
export function PlatformBankBrowser({ base, action }: { base: PlatformBankBase; action?: (row: Row) => ReactNode }) {
  const { t } = useTranslation('platform')
  const language = useLanguage()
  const [typed, setTyped] = useState('')
  const [search, setSearch] = useState('')
  const [page, setPage] = useState(1)
  const list = useQuery({ ...platformBankQueries.list(base, search, page), placeholderData: (previous) => previous })
  const pages = Math.max(1, Math.ceil((list.data?.count ?? 0) / PLATFORM_BANK_PAGE_SIZE))
  const n = (value: number) => formatNumber(value, language)
  return (
    <>
      <form
        role="search"
        className="platform-bank__search"
        onSubmit={(event) => {
          event.preventDefault()
          setSearch(typed)
          setPage(1)
        }}
      >
        <label htmlFor="platform-bank-search">{t('bank.search')}</label>
        <span className="platform-bank__search-row">
          <input
            id="platform-bank-search"
            type="search"
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
          />
          <Button type="submit">{t('bank.search_button')}</Button>
        </span>
      </form>
      {list.isPending && <p role="status">{t('bank.loading')}</p>}
      {list.isError && <p role="alert">{t('bank.load_failed')}</p>}
      {list.data && (
        <>
          <p className="muted" role="status">
            {t('bank.count', { count: list.data.count })}
          </p>
          {list.data.results.length === 0 ? (
            <p>{t('bank.empty')}</p>
          ) : (
            <ul className="platform-bank__list">
              {list.data.results.map((row) => (
                <PlatformBankCard key={row.id} base={base} row={row} action={action?.(row)} />
              ))}
            </ul>
          )}
          {pages > 1 && (
            <nav className="actions" aria-label={t('bank.page', { page: n(page), pages: n(pages) })}>
              <Button small disabled={page <= 1} onClick={() => setPage(page - 1)}>
                {t('bank.previous')}
              </Button>
              <span>{t('bank.page', { page: n(page), pages: n(pages) })}</span>
              <Button small disabled={page >= pages} onClick={() => setPage(page + 1)}>
                {t('bank.next')}
              </Button>
            </nav>
          )}
        </>
      )}
    </>
  )
}

function PlatformBankCard({ base, row, action }: { base: PlatformBankBase; row: Row; action?: ReactNode }) {
  const { t } = useTranslation('platform')
  const language = useLanguage()
  const [open, setOpen] = useState(false)
  const id = formatNumber(row.id, language)
  const previewId = `platform-question-${row.id}`
  return (
    <li className="platform-bank__item">
      <p className="platform-bank__text">
        <span className="muted">#{id}</span> <RichPreview text={row.text} maxLength={120} />
      </p>
      <p className="platform-bank__facets muted">
        {row.topic && <span lang={scriptLang(row.topic, language)}>{row.topic}</span>}
        {row.tags.length > 0 && <span>{row.tags.join(', ')}</span>}
        {row.source && <span>{row.source}</span>}
      </p>
      <span className="actions">
        <Button
          small
          aria-expanded={open}
          aria-controls={previewId}
          aria-label={open ? undefined : t('bank.preview_named', { id })}
          onClick={() => setOpen(!open)}
        >
          {open ? t('bank.hide_preview') : t('bank.preview')}
        </Button>
        {action}
      </span>
      <div id={previewId} hidden={!open}>
        {open && <QuestionPreview base={base} id={row.id} />}
      </div>
    </li>
  )
}

/** The whole question as a learner would read it, with its right answer and explanation marked for the admin. */
function QuestionPreview({ base, id }: { base: PlatformBankBase; id: number }) {
  const { t } = useTranslation('platform')
  const question = useQuery(platformBankQueries.question(base, id))
  if (question.isPending) return <p role="status">{t('bank.loading')}</p>
  if (question.isError) return <p role="alert">{t('bank.load_failed')}</p>
  const q = question.data
  return (
    <div className="platform-bank__preview">
      <RichText text={q.text} as="div" />
      {q.options.length > 0 && (
        <ol className="platform-bank__options" aria-label={t('bank.options')}>
          {q.options.map((option) => (
            <li key={option.id} className={option.is_correct ? 'platform-bank__right' : undefined}>
              <RichText text={option.text} />
              {option.is_correct && <strong> ({t('bank.correct')})</strong>}
            </li>
          ))}
        </ol>
      )}
    </div>
  )
}
