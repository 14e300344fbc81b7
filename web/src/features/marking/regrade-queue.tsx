import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { ApiError } from '../../api/api-error'
import { Alert } from '../../components/ui/alert'
import { Button, buttonClass } from '../../components/ui/button'
import { Loading } from '../../components/ui/loading'
import { Pager } from '../../components/ui/pager'
import { useBilingualLang, useLanguage } from '../../i18n/use-bilingual'
import { formatDateTime, formatNumber } from '../../lib/format'
import { paths } from '../../lib/paths'
import { decideRegrade, markingKeys, markingQueries, type RegradeQueueEntry, type RegradeStatus } from './marking.api'
import './marking.css'
import './marking.i18n'

const STATUSES: readonly RegradeStatus[] = ['open', 'accepted', 'rejected']
/** contracts regradeLimits.responseLength (the barrel is not imported for one number). */
const RESPONSE_LENGTH = 2000

type Decision = 'accepted' | 'rejected'

/** One open request: what the learner asked, and a response with Accept or Reject. */
function OpenRequest({ entry, quizId }: { entry: RegradeQueueEntry; quizId: number }) {
  const { t } = useTranslation('marking')
  const queryClient = useQueryClient()
  const [response, setResponse] = useState('')
  const [missing, setMissing] = useState(false)
  const decide = useMutation({
    mutationFn: (status: Decision) => decideRegrade(entry.id, { status, response: response.trim() }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: markingKeys.regrades(quizId) }),
  })
  const fieldId = `regrade-${entry.id}-response`
  const submit = (status: Decision) => (event?: FormEvent) => {
    event?.preventDefault()
    if (response.trim() === '') return setMissing(true)
    decide.mutate(status)
  }
  return (
    <form className="regrade-decision" onSubmit={submit('accepted')} noValidate>
      <div className="field">
        <label htmlFor={fieldId}>{t('regrades.response')}</label>
        <textarea
          id={fieldId}
          rows={3}
          maxLength={RESPONSE_LENGTH}
          value={response}
          aria-invalid={missing || undefined}
          aria-describedby={`${fieldId}-hint`}
          onChange={(event) => {
            setResponse(event.target.value)
            setMissing(false)
          }}
        />
        <span id={`${fieldId}-hint`} className={missing ? 'field__error' : 'field__hint'}>
          {missing ? t('regrades.response_missing') : t('regrades.response_hint')}
        </span>
      </div>
      {decide.isError && (
        <Alert kind="error">
          {decide.error instanceof ApiError && decide.error.status === 409
            ? t('regrades.already_decided')
            : t('regrades.decide_failed')}
        </Alert>
      )}
      <p className="regrade-decision__actions">
        <Button type="submit" variant="primary" disabled={decide.isPending}>
          {t('regrades.accept')}
        </Button>
        <Button variant="danger" disabled={decide.isPending} onClick={() => submit('rejected')()}>
          {t('regrades.reject')}
        </Button>
      </p>
    </form>
  )
}

function RequestCard({ entry, quizId, number }: { entry: RegradeQueueEntry; quizId: number; number?: number }) {
  const { t } = useTranslation('marking')
  const language = useLanguage()
  const pick = useBilingualLang()
  const n = (value: number) => formatNumber(value, language, { maximumFractionDigits: 2 })
  const item = entry.item ? pick(entry.item.title) : null
  const headingId = `regrade-${entry.id}-heading`
  const settled = entry.settled_at !== null
  return (
    <li className="regrade card">
      <h3 id={headingId} className="regrade__heading">
        {/* Codes and the learner's words stay as written: t()'s Nepali would turn their digits into Devanagari. */}
        {t('regrades.answer')} {entry.anonymous_code}
        <span className="muted">
          {' · '}
          {number === undefined
            ? t('regrades.question_unnumbered')
            : t('overview.question_number', { number: n(number) })}
        </span>
      </h3>
      <dl className="regrade__facts">
        <dt>{t('regrades.about')}</dt>
        <dd>{item ? <span lang={item.lang}>{item.text}</span> : t('regrades.whole')}</dd>
        <dt>{t('regrades.marks')}</dt>
        <dd>
          {entry.marks === null
            ? t('regrades.no_marks')
            : t('regrades.marks_of', { marks: n(entry.marks), max: n(entry.max_marks) })}
        </dd>
        <dt>{t('regrades.asked')}</dt>
        <dd>{formatDateTime(entry.created_at, language)}</dd>
      </dl>
      <blockquote className="regrade__message">{entry.message}</blockquote>
      {entry.response && (
        <p>
          {t('regrades.responded')} {entry.response}
        </p>
      )}
      {entry.status === 'open' && <OpenRequest entry={entry} quizId={quizId} />}
      {entry.status === 'accepted' &&
        (settled ? (
          <p className="muted">
            {t('regrades.settled', { from: n(entry.old_marks ?? 0), to: n(entry.new_marks ?? 0) })}
          </p>
        ) : (
          <p>
            <Link
              className={buttonClass({ variant: 'primary', small: true })}
              to={paths.markAnswer(quizId, entry.answer_id)}
            >
              {t('regrades.mark_again')} {entry.anonymous_code}
            </Link>
          </p>
        ))}
    </li>
  )
}

/**
 * The quiz's regrade requests (API.md "Written answers marked by rubric", docs/decisions/071): open ones are accepted
 * or rejected with a response the learner reads; an accepted one waits until its answer is marked again, opened by id.
 * Answers by their anonymous code only. `numbers` names questions as the overview does.
 */
export function RegradeQueue({ quizId, numbers }: { quizId: number; numbers: ReadonlyMap<number, number> }) {
  const { t } = useTranslation('marking')
  const language = useLanguage()
  const [status, setStatus] = useState<RegradeStatus>('open')
  const [page, setPage] = useState(1)
  const queue = useQuery({ ...markingQueries.regrades(quizId, status, page), placeholderData: (previous) => previous })
  const n = (value: number) => formatNumber(value, language)
  const pages = queue.data ? Math.max(1, Math.ceil(queue.data.count / queue.data.page_size)) : 1

  return (
    <section className="regrade-queue" aria-labelledby="regrade-queue-heading">
      <h2 id="regrade-queue-heading">{t('regrades.heading')}</h2>
      <p className="muted">{t('regrades.intro')}</p>
      <div className="field regrade-queue__filter">
        <label htmlFor="regrade-status">{t('regrades.show')}</label>
        <select
          id="regrade-status"
          value={status}
          onChange={(event) => {
            setStatus(event.target.value as RegradeStatus)
            setPage(1)
          }}
        >
          {STATUSES.map((value) => (
            <option key={value} value={value}>
              {t(`regrades.status.${value}`)}
            </option>
          ))}
        </select>
      </div>
      {queue.isPending && <Loading label={t('regrades.loading')} />}
      {queue.isError && !queue.data && <Alert kind="error">{t('regrades.load_failed')}</Alert>}
      {queue.data && queue.data.results.length === 0 && <p className="muted">{t(`regrades.empty.${status}`)}</p>}
      {queue.data && queue.data.results.length > 0 && (
        <>
          <p role="status" className="muted">
            {t('regrades.count', { count: queue.data.count, number: n(queue.data.count) })}
          </p>
          <ul className="regrade-list">
            {queue.data.results.map((entry) => (
              <RequestCard key={entry.id} entry={entry} quizId={quizId} number={numbers.get(entry.question_id)} />
            ))}
          </ul>
        </>
      )}
      {pages > 1 && (
        <Pager
          page={page}
          pages={pages}
          onPage={setPage}
          previous={t('regrades.previous')}
          next={t('regrades.next')}
          label={t('regrades.page', { page: n(page), pages: n(pages) })}
        />
      )}
    </section>
  )
}
