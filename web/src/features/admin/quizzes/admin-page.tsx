import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { paths } from '../../../lib/paths'
import { Alert } from '../../../components/ui/alert'
import { useBilingual, useBilingualLang } from '../../../i18n/use-bilingual'
import { formatDateTime } from '../../../lib/format'
import { adminQueries, useDeleteQuiz, type AdminQuizSummary } from './quizzes.api'
import { StatusBadge } from './quiz-status'
import { AdminNav } from '../admin-nav'
import { ConfirmDeleteDialog } from '../confirm-dialog'
import '../admin.css'
import { QueryStates } from '../ui'
import '../admin.i18n'
import { Button, buttonClass } from '../../../components/ui/button'

/** /admin: every quiz (active or not), newest first, with Edit and Delete. */
export function Component() {
  const { t, i18n } = useTranslation('admin')
  const pick = useBilingual()
  const pickLang = useBilingualLang()
  const quizzes = useQuery(adminQueries.list())
  const deleteQuiz = useDeleteQuiz()
  const [toDelete, setToDelete] = useState<AdminQuizSummary | null>(null)
  const [outcome, setOutcome] = useState<'deleted' | 'failed' | null>(null)

  const period = (quiz: AdminQuizSummary) =>
    t('list.period', {
      start: formatDateTime(quiz.start_time, i18n.language),
      end: quiz.end_time ? formatDateTime(quiz.end_time, i18n.language) : t('list.no_end'),
    })

  const confirmDelete = () => {
    if (!toDelete) return
    deleteQuiz.mutate(toDelete.id, {
      onSuccess: () => setOutcome('deleted'),
      onError: () => setOutcome('failed'),
      onSettled: () => setToDelete(null),
    })
  }

  return (
    <div className="admin">
      <AdminNav />
      <div className="page-header">
        <h1>{t('list.title')}</h1>
        <div className="actions">
          <Link className={buttonClass({ variant: 'primary' })} to={paths.adminCreateQuiz()}>
            {t('list.new_quiz')}
          </Link>
          <Link className={buttonClass()} to={paths.adminNewQuiz()}>
            {t('list.create_quiz')}
          </Link>
        </div>
      </div>

      {outcome === 'failed' && <Alert kind="error">{t('list.delete_failed')}</Alert>}
      {outcome === 'deleted' && <Alert kind="success">{t('list.deleted')}</Alert>}

      <QueryStates query={quizzes} isEmpty={(data) => data.length === 0} text={(key) => t(`list.${key}`)}>
        {(data) => (
          <ul className="admin-list">
            {data.map((quiz) => {
              const title = pickLang(quiz.title)
              return (
                <li key={quiz.id} className="card admin-list__item">
                  <div className="admin-list__main">
                    <h2 className="admin-list__title" lang={title.lang}>
                      {title.text}
                    </h2>
                    <p className="admin-list__period">{period(quiz)}</p>
                    <p className="admin-list__meta">
                      <StatusBadge status={quiz.status} />
                      <span>{t('list.question_count', { count: quiz.question_count })}</span>
                      <span>{t('list.minutes', { count: quiz.duration_minutes })}</span>
                      <span className={`badge badge--${quiz.difficulty}`}>{t(`difficulty.${quiz.difficulty}`)}</span>
                      {quiz.is_paid_tier && <span className="badge badge--paid">{t('list.paid')}</span>}
                    </p>
                  </div>
                  <div className="actions admin-list__actions">
                    <Link
                      className={buttonClass()}
                      to={paths.adminEditQuiz(quiz.id)}
                      aria-label={t('list.edit_named', { title: title.text })}
                    >
                      {t('common.edit')}
                    </Link>
                    <Button
                      variant="danger"
                      aria-label={t('list.delete_named', { title: title.text })}
                      onClick={() => {
                        setOutcome(null)
                        setToDelete(quiz)
                      }}
                    >
                      {t('common.delete')}
                    </Button>
                  </div>
                </li>
              )
            })}
          </ul>
        )}
      </QueryStates>

      <ConfirmDeleteDialog
        open={toDelete !== null}
        title={t('list.delete_title')}
        message={t('list.confirm_delete')}
        subject={toDelete ? pick(toDelete.title) : undefined}
        pending={deleteQuiz.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setToDelete(null)}
      />
    </div>
  )
}
