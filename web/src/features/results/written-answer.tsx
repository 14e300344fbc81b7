import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../../api/api-error'
import { AnnotatedPage, type AnnotationLabels } from '../../components/annotations/annotated-page'
import { readAnnotationDoc } from '../../components/annotations/annotation-doc'
import { Alert } from '../../components/ui/alert'
import { Button } from '../../components/ui/button'
import { Loading } from '../../components/ui/loading'
import { RichText } from '../../components/ui/rich-text'
import { useBilingualLang, useLanguage } from '../../i18n/use-bilingual'
import { formatDateTime, formatNumber } from '../../lib/format'
import type { ReportQuestion } from './results.api'
import { askForRemark, PAGE_SIZES, writtenKeys, writtenQueries, ZOOMED_SIZES, type WrittenResult } from './written.api'
import './written.css'
import './written.i18n'

type ResultItem = WrittenResult['items'][number]
type Request = NonNullable<WrittenResult['regrade']['request']>

/** A request stops holding the answer once rejected or, accepted, settled by marking again: another may be asked. */
const isClosed = (request: Request) =>
  request.status === 'rejected' || (request.status === 'accepted' && request.settled_at !== null)

function signed(points: number, format: (value: number) => string) {
  return points > 0 ? `+${format(points)}` : points < 0 ? `−${format(-points)}` : format(0)
}

function Pages({ result, number, first }: { result: WrittenResult; number: number; first: boolean }) {
  const { t } = useTranslation('written')
  const language = useLanguage()
  const [zoomed, setZoomed] = useState<number | null>(null)
  const n = (value: number) => formatNumber(value, language, { maximumFractionDigits: 2 })
  const items = result.items
  const labels = (index: number): AnnotationLabels => ({
    page: t('page_alt', { page: n(index + 1), question: n(number) }),
    stamps: {
      tick: t('stamps.tick'),
      cross: t('stamps.cross'),
      question: t('stamps.question'),
      good: t('stamps.good'),
    },
    item: (id) => {
      const item = items.find((candidate) => candidate.id === id)
      return item ? signed(item.points, n) : undefined
    },
    note: t('marks.note'),
    box: t('marks.box'),
    ink: t('marks.ink'),
  })
  return (
    <ol className="written-pages">
      {result.pages.map((page, index) => (
        <li key={page.id} className="written-page">
          {/* Zoomed, the page scrolls inside its frame: the frame takes focus so arrow keys scroll it too. */}
          <div
            className={`written-page__scroll${zoomed === page.id ? ' written-page__scroll--zoomed' : ''}`}
            {...(zoomed === page.id ? { tabIndex: 0, role: 'group', 'aria-label': labels(index).page } : {})}
          >
            <AnnotatedPage
              page={page}
              doc={readAnnotationDoc(page.annotations)}
              labels={labels(index)}
              sizes={zoomed === page.id ? ZOOMED_SIZES : PAGE_SIZES}
              priority={first && index === 0}
            />
          </div>
          <Button
            small
            aria-pressed={zoomed === page.id}
            onClick={() => setZoomed(zoomed === page.id ? null : page.id)}
          >
            {t(zoomed === page.id ? 'zoom_out' : 'zoom_in', { page: n(index + 1) })}
          </Button>
        </li>
      ))}
    </ol>
  )
}

/** The latest request as the server keeps it (contracts/src/regrades.ts): status, what was asked, the reply, the outcome. */
function RemarkStatus({ request, items }: { request: Request; items: readonly ResultItem[] }) {
  const { t } = useTranslation('written')
  const language = useLanguage()
  const pick = useBilingualLang()
  const n = (value: number) => formatNumber(value, language, { maximumFractionDigits: 2 })
  const item = request.item_id === null ? undefined : items.find((candidate) => candidate.id === request.item_id)
  const title = item ? pick(item.title) : null
  const settled = request.status === 'accepted' && request.settled_at !== null
  return (
    <div className="written-remark" role="status">
      <p>
        <strong>{t('remark.requested')}</strong>{' '}
        <span className="badge">{t(settled ? 'remark.status.settled' : `remark.status.${request.status}`)}</span>{' '}
        <span className="muted">{formatDateTime(request.created_at, language)}</span>
      </p>
      {title && (
        <p>
          {t('remark.about_item')} <span lang={title.lang}>{title.text}</span>
        </p>
      )}
      <p className="muted">{request.message}</p>
      {/* The marker's own words stay as written: outside t(), whose Nepali turns digits into Devanagari. */}
      {request.response && (
        <p>
          {t('remark.response')} {request.response}
        </p>
      )}
      {request.status === 'accepted' && !settled && <p>{t('remark.accepted_body')}</p>}
      {settled && request.old_marks !== null && request.new_marks !== null && (
        <p>
          {request.old_marks === request.new_marks
            ? t('remark.settled_same', { marks: n(request.new_marks) })
            : t('remark.settled', { from: n(request.old_marks), to: n(request.new_marks) })}
        </p>
      )}
    </div>
  )
}

function Remark({ attemptId, questionId, result }: { attemptId: number; questionId: number; result: WrittenResult }) {
  const { t } = useTranslation('written')
  const language = useLanguage()
  const pick = useBilingualLang()
  const queryClient = useQueryClient()
  const [open, setOpen] = useState(false)
  const [about, setAbout] = useState('')
  const [message, setMessage] = useState('')
  const [missing, setMissing] = useState(false)
  // When the report was opened: the window is read against it (a render must not read the clock).
  const [openedAt] = useState(() => Date.now())
  const send = useMutation({
    mutationFn: () =>
      askForRemark(attemptId, questionId, {
        message: message.trim(),
        ...(about !== '' ? { item_id: Number(about) } : {}),
      }),
    onSuccess: () => {
      setOpen(false)
      void queryClient.invalidateQueries({ queryKey: writtenKeys.result(attemptId, questionId) })
    },
  })
  const request = result.regrade.request
  const until = result.regrade.open_until
  const windowOpen = until !== null && new Date(until).getTime() >= openedAt
  const shown = request && <RemarkStatus request={request} items={result.items} />
  if (request && !isClosed(request)) return shown
  if (!windowOpen) {
    return (
      <>
        {shown}
        {until && <p className="muted">{t('remark.closed')}</p>}
      </>
    )
  }
  const items = result.items
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (message.trim() === '') return setMissing(true)
    send.mutate()
  }
  if (!open) {
    return (
      <>
        {shown}
        <p className="written-remark">
          <Button onClick={() => setOpen(true)}>{t(request ? 'remark.ask_again' : 'remark.ask')}</Button>{' '}
          <span className="muted">{t('remark.until', { time: formatDateTime(until, language) })}</span>
        </p>
      </>
    )
  }
  const fieldId = `remark-${questionId}`
  return (
    <form className="written-remark card" onSubmit={submit} noValidate>
      <h4>{t('remark.ask')}</h4>
      {items.length > 0 && (
        <div className="field">
          <label htmlFor={`${fieldId}-about`}>{t('remark.about')}</label>
          <select id={`${fieldId}-about`} value={about} onChange={(event) => setAbout(event.target.value)}>
            <option value="">{t('remark.whole')}</option>
            {items.map((item) => (
              <option key={item.id} value={item.id}>
                {pick(item.title).text}
              </option>
            ))}
          </select>
        </div>
      )}
      <div className="field">
        <label htmlFor={`${fieldId}-message`}>{t('remark.message')}</label>
        <textarea
          id={`${fieldId}-message`}
          rows={4}
          maxLength={2000}
          value={message}
          aria-invalid={missing || undefined}
          aria-describedby={`${fieldId}-hint`}
          onChange={(event) => {
            setMessage(event.target.value)
            setMissing(false)
          }}
        />
        <span id={`${fieldId}-hint`} className={missing ? 'field__error' : 'field__hint'}>
          {missing ? t('remark.message_missing') : t('remark.message_hint')}
        </span>
      </div>
      {send.isError && (
        <Alert kind="error">
          {send.error instanceof ApiError && send.error.status === 409 ? t('remark.already') : t('remark.failed')}
        </Alert>
      )}
      <p className="written-remark__actions">
        <Button type="submit" variant="primary" disabled={send.isPending}>
          {t('remark.send')}
        </Button>
        <Button onClick={() => setOpen(false)}>{t('remark.cancel')}</Button>
      </p>
    </form>
  )
}

/**
 * A written question on the report card: awaiting marking, or once released its marks, the rubric items gained and
 * lost, the comment, the pages with the marker's marks drawn over them, the model answer, the typed text and
 * "Ask for a re-mark" (WEB.md "Written answers").
 */
export function WrittenAnswer({
  attemptId,
  question,
  number,
  first = false,
}: {
  attemptId: number
  question: ReportQuestion
  number: number
  /** The report's first written question: its first page is fetched ahead of everything else. */
  first?: boolean
}) {
  const { t } = useTranslation('written')
  const language = useLanguage()
  const pick = useBilingualLang()
  const result = useQuery(writtenQueries.result(attemptId, question.id))
  const n = (value: number) => formatNumber(value, language, { maximumFractionDigits: 2 })
  const headingId = `written-${question.id}-heading`
  const data = result.data
  const released = data?.status === 'released'
  const items = data?.items ?? []
  const gained = items.filter((item) => item.points >= 0)
  const lost = items.filter((item) => item.points < 0)
  const itemList = (list: ResultItem[]) => (
    <ul className="written-items">
      {list.map((item) => {
        const title = pick(item.title)
        return (
          <li key={item.id}>
            <span className={`written-items__points${item.points < 0 ? ' written-items__points--minus' : ''}`}>
              {signed(item.points, n)}
            </span>{' '}
            <span lang={title.lang}>{title.text}</span>
            {item.explanation && <span className="written-items__why muted"> — {pick(item.explanation).text}</span>}
          </li>
        )
      })}
    </ul>
  )
  const comment = data?.comment ? pick(data.comment) : null
  const model = data?.model_answer ? pick(data.model_answer) : null

  return (
    <article id={`written-${question.id}`} className="written-answer card" aria-labelledby={headingId}>
      <h3 id={headingId}>
        {t('heading', { number: n(number) })}
        {data && (
          <span className={`badge written-answer__marks${released ? '' : ' badge--pending'}`}>
            {released && data.marks !== null
              ? t('marks_of', { marks: n(data.marks), max: n(data.max_marks) })
              : t('awaiting')}
          </span>
        )}
      </h3>
      <RichText as="div" className="written-answer__question" text={question.text} />
      {result.isPending && <Loading label={t('loading')} />}
      {result.isError && <Alert kind="error">{t('load_failed')}</Alert>}
      {data && (
        <>
          {!released && <p className="muted">{t('awaiting_body')}</p>}
          {released && (
            <>
              {gained.length > 0 && (
                <section aria-label={t('gained')}>
                  <h4>{t('gained')}</h4>
                  {itemList(gained)}
                </section>
              )}
              {lost.length > 0 && (
                <section aria-label={t('lost')}>
                  <h4>{t('lost')}</h4>
                  {itemList(lost)}
                </section>
              )}
              {data.adjustment !== null && data.adjustment !== 0 && (
                <p>{t('adjustment', { points: signed(data.adjustment, n) })}</p>
              )}
              {comment && comment.text && (
                <section aria-label={t('comment')}>
                  <h4>{t('comment')}</h4>
                  <p className="written-answer__comment" lang={comment.lang}>
                    {comment.text}
                  </p>
                </section>
              )}
            </>
          )}
          {data.pages.length > 0 && (
            <section aria-label={t('pages')}>
              <h4>{t('pages')}</h4>
              <Pages result={data} number={number} first={first} />
            </section>
          )}
          {data.text.trim() !== '' && (
            <section aria-label={t('typed')}>
              <h4>{t('typed')}</h4>
              <div className="written-answer__text">{data.text}</div>
            </section>
          )}
          {released && model && model.text && (
            <section aria-label={t('model_answer')}>
              <h4>{t('model_answer')}</h4>
              {/* Tables and maths drawn as the question's own text is (issue 73). */}
              <RichText as="div" className="written-answer__text" text={data.model_answer} />
            </section>
          )}
          {released && <Remark attemptId={attemptId} questionId={question.id} result={data} />}
        </>
      )}
    </article>
  )
}
