import { FLAG_REASONS } from '@quiz/contracts/rules/challenges'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Alert } from '../../../components/ui/alert'
import { Button } from '../../../components/ui/button'
import { Pager } from '../../../components/ui/pager'
import { RichText } from '../../../components/ui/rich-text'
import { useBilingual, useLanguage } from '../../../i18n/use-bilingual'
import { optionLetter } from '../../../lib/option-letters'
import { formatDateTime, formatNumber } from '../../../lib/format'
import { AdminNav } from '../admin-nav'
import '../admin.css'
import '../admin.i18n'
import { QueryStates, TableHead, TableScroll } from '../ui'
import { DecisionForm } from './decision-form'
import { flagQueries, type FlaggedQuestion, type QueueStatus } from './key-challenges.api'
import './key-challenges.css'

/** Groups per page of `GET /api/admin/flags/`: the pager's guess when the first page is full. */
const PAGE_SIZE = 20

/** /admin/key-challenges: flagged questions, most flagged first, each with what learners said and a decision form. */
export function Component() {
  const { t } = useTranslation('admin')
  const language = useLanguage()
  const [status, setStatus] = useState<QueueStatus>('open')
  const [page, setPage] = useState(1)
  // Kept here: once applied, the question leaves the open queue and its card with it.
  const [applied, setApplied] = useState<string | null>(null)
  const queue = useQuery({ ...flagQueries.queue(status, page), placeholderData: (previous) => previous })
  const pages = Math.max(1, Math.ceil((queue.data?.count ?? 0) / PAGE_SIZE))

  return (
    <div className="admin">
      <AdminNav />
      <h1>{t('key_challenges.title')}</h1>
      <p className="muted">{t('key_challenges.intro')}</p>
      <div className="field admin-filter">
        <label htmlFor="key-challenges-status">{t('key_challenges.status')}</label>
        <select
          id="key-challenges-status"
          value={status}
          onChange={(event) => {
            setStatus(event.target.value as QueueStatus)
            setPage(1)
          }}
        >
          <option value="open">{t('key_challenges.status_open')}</option>
          <option value="decided">{t('key_challenges.status_decided')}</option>
        </select>
      </div>
      {applied && <Alert kind="success">{applied}</Alert>}
      <QueryStates
        query={queue}
        isEmpty={(data) => data.results.length === 0}
        text={(key) => t(`key_challenges.${key}`)}
      >
        {(data) => (
          <>
            <p className="muted">{t('key_challenges.count', { count: data.count })}</p>
            <ol className="key-queue">
              {data.results.map((item) => (
                <li key={item.question.revision_id}>
                  <FlaggedQuestionCard item={item} decidable={status === 'open'} onApplied={setApplied} />
                </li>
              ))}
            </ol>
            {pages > 1 && (
              <Pager
                page={page}
                pages={pages}
                onPage={setPage}
                previous={t('key_challenges.previous')}
                next={t('key_challenges.next')}
                label={t('key_challenges.page', {
                  page: formatNumber(page, language),
                  pages: formatNumber(pages, language),
                })}
              />
            )}
          </>
        )}
      </QueryStates>
    </div>
  )
}

function FlaggedQuestionCard({
  item,
  decidable,
  onApplied,
}: {
  item: FlaggedQuestion
  decidable: boolean
  onApplied: (message: string) => void
}) {
  const { t } = useTranslation('admin')
  const pick = useBilingual()
  const language = useLanguage()
  const [deciding, setDeciding] = useState(false)
  const n = (value: number) => formatNumber(value, language)
  const headingId = `key-question-${item.question.revision_id}`
  const reasons = FLAG_REASONS.filter((reason) => (item.flags.by_reason[reason] ?? 0) > 0)

  return (
    <article className="card key-question" aria-labelledby={headingId}>
      <h2 id={headingId}>
        {t('key_challenges.question', { id: item.question.id })}{' '}
        <span className="badge">{t('key_challenges.flags', { count: item.flags.total })}</span>
      </h2>
      <p className="muted">
        {t('key_challenges.in_quizzes', { quizzes: item.quizzes.map((quiz) => pick(quiz.title)).join(', ') })}
      </p>
      <RichText as="p" className="key-question__text" text={item.question.text} />

      <TableScroll label={t('key_challenges.options_caption')}>
        <table className="admin-table key-options">
          <caption className="visually-hidden">{t('key_challenges.options_caption')}</caption>
          <TableHead
            columns={[
              { label: t('key_challenges.option_col') },
              { label: t('key_challenges.text_col') },
              { label: t('key_challenges.chosen_col'), numeric: true },
              { label: t('key_challenges.proposed_col'), numeric: true },
            ]}
          />
          <tbody>
            {item.question.options.map((option, index) => (
              <tr key={option.id} className={option.is_correct ? 'key-options__correct' : undefined}>
                <th scope="row">
                  {optionLetter(index, language)}
                  {option.is_correct && <span className="tag tag--correct">{t('key_challenges.key_mark')}</span>}
                </th>
                <td>
                  <RichText text={option.text} />
                </td>
                <td className="admin-num">{n(option.chosen)}</td>
                <td className="admin-num">{n(item.flags.proposed[String(option.id)] ?? 0)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>

      <dl className="key-question__figures">
        <div>
          <dt>{t('key_challenges.by_reason')}</dt>
          <dd>
            <ul>
              {reasons.map((reason) => (
                <li key={reason}>
                  {t(`key_challenges.reasons.${reason}`)}: {n(item.flags.by_reason[reason] ?? 0)}
                </li>
              ))}
            </ul>
          </dd>
        </div>
        <div>
          <dt>{t('key_challenges.facility')}</dt>
          <dd>
            {item.facility === null
              ? t('key_challenges.not_available')
              : formatNumber(item.facility, language, { style: 'percent' })}
          </dd>
        </div>
        <div>
          <dt>{t('key_challenges.discrimination')}</dt>
          <dd>
            {item.discrimination === null
              ? t('key_challenges.not_available')
              : formatNumber(item.discrimination, language, { minimumFractionDigits: 2, maximumFractionDigits: 2 })}
          </dd>
        </div>
      </dl>
      <p className="muted key-question__help">{t('key_challenges.figures_help')}</p>

      {item.notes.length > 0 && (
        <details className="key-question__notes">
          <summary>{t('key_challenges.notes', { count: item.notes.length })}</summary>
          <ul>
            {item.notes.map((note, index) => (
              <li key={index}>
                <span className="muted">
                  {t(`key_challenges.reasons.${note.reason}`)} ·{' '}
                  <time dateTime={note.created_at}>{formatDateTime(note.created_at, language)}</time>
                </span>
                <p>{note.text}</p>
              </li>
            ))}
          </ul>
        </details>
      )}

      {decidable &&
        (deciding ? (
          <DecisionForm item={item} onDone={() => setDeciding(false)} onApplied={onApplied} />
        ) : (
          <p>
            <Button variant="primary" onClick={() => setDeciding(true)}>
              {t('key_challenges.decide')}
            </Button>
          </p>
        ))}
    </article>
  )
}
