import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import {
  markNotificationsRead,
  notificationKeys,
  notificationsQuery,
  type MarkReadBody,
  type Notification,
} from '../../api/notifications'
import { Alert } from '../../components/ui/alert'
import { Button } from '../../components/ui/button'
import { Loading } from '../../components/ui/loading'
import { Pager } from '../../components/ui/pager'
import { useLanguage } from '../../i18n/use-bilingual'
import { InlineText } from '../../components/ui/rich-text'
import { formatDateTime, formatNumber } from '../../lib/format'
import './notifications.css'
import './notifications.i18n'

/**
 * Kinds whose news is a changed report: its cached copy must be read again when the learner follows the link. A
 * decided re-mark changes the written answer's request (and, once marked again, its marks); its link names the answer
 * (`/results/{attemptId}#written-{questionId}`), which the report scrolls to.
 */
const CHANGES_RESULTS = new Set<Notification['kind']>([
  'flag_decided',
  'score_changed',
  'written_marked',
  'regrade_decided',
])

/** /notifications: the bell's list, newest first; each links to what it is about and is marked read one by one or all. */
export function Component() {
  const { t } = useTranslation('notifications')
  const language = useLanguage()
  const queryClient = useQueryClient()
  const [page, setPage] = useState(1)
  const list = useQuery({ ...notificationsQuery(page), placeholderData: (previous) => previous })
  const markRead = useMutation({
    mutationFn: (body: MarkReadBody) => markNotificationsRead(body),
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationKeys.all }),
  })

  if (list.isError && !list.data) return <Alert kind="error">{t('load_failed')}</Alert>
  if (list.isPending) return <Loading label={t('loading')} />

  const { unread, results, count, page_size } = list.data
  const pages = Math.max(1, Math.ceil(count / page_size))
  const follow = (notification: Notification) => {
    if (!notification.read) markRead.mutate({ ids: [notification.id] })
    if (CHANGES_RESULTS.has(notification.kind)) void queryClient.invalidateQueries({ queryKey: ['results'] })
  }

  return (
    <div className="notifications stack">
      <div className="page-header">
        <h1>{t('title')}</h1>
        <p className="muted" role="status">
          {unread > 0 ? t('unread', { count: unread }) : t('all_read')}
        </p>
      </div>
      {markRead.isError && <Alert kind="error">{t('mark_failed')}</Alert>}
      {unread > 0 && (
        <p>
          <Button disabled={markRead.isPending} onClick={() => markRead.mutate({ all: true })}>
            {t('mark_all')}
          </Button>
        </p>
      )}
      {results.length === 0 ? (
        <p className="muted">{t('empty')}</p>
      ) : (
        <ul className="notification-list">
          {results.map((notification) => (
            <li
              key={notification.id}
              className={`notification card${notification.read ? '' : ' notification--unread'}`}
            >
              <p className="notification__text">
                {!notification.read && <span className="badge badge--new">{t('new')}</span>}{' '}
                <InlineText text={notification.text} />
              </p>
              <p className="notification__meta">
                <time className="muted" dateTime={notification.created_at}>
                  {formatDateTime(notification.created_at, language)}
                </time>
                {notification.link && (
                  <Link to={notification.link} onClick={() => follow(notification)}>
                    {t('open')}
                  </Link>
                )}
                {!notification.read && (
                  <Button
                    small
                    disabled={markRead.isPending}
                    onClick={() => markRead.mutate({ ids: [notification.id] })}
                  >
                    {t('mark_one')}
                  </Button>
                )}
              </p>
            </li>
          ))}
        </ul>
      )}
      {pages > 1 && (
        <Pager
          page={page}
          pages={pages}
          onPage={setPage}
          previous={t('previous')}
          next={t('next')}
          label={t('page', { page: formatNumber(page, language), pages: formatNumber(pages, language) })}
        />
      )}
    </div>
  )
}
