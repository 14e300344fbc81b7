import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { Alert } from '../../../components/ui/alert'
import { useLanguage } from '../../../i18n/use-bilingual'
import { formatDateTime, formatNumber } from '../../../lib/format'
import { paths } from '../../../lib/paths'
import { AdminQuizFrame } from '../quizzes/admin-quiz-frame'
import { QueryStates } from '../ui'
import { SittingForm } from './sitting-form'
import { useSittingName } from './sitting-title'
import { sittingQueries, useCreateSitting, type Sitting } from './sittings.api'
import './sittings.css'
import './sittings.i18n'

/** /admin/quiz/{id}/sittings: the quiz's paper sittings, and a form for a new one. */
export function Component() {
  const { t } = useTranslation('sittings')
  return (
    <AdminQuizFrame heading={(title) => t('list.title', { title })}>
      {(quiz) => <SittingList quizId={quiz.id} />}
    </AdminQuizFrame>
  )
}

function SittingList({ quizId }: { quizId: number }) {
  const { t } = useTranslation('sittings')
  const sittings = useQuery(sittingQueries.list(quizId))
  const create = useCreateSitting(quizId)
  const [created, setCreated] = useState<Sitting | null>(null)
  return (
    <>
      <p className="muted">{t('list.intro')}</p>
      <QueryStates query={sittings} isEmpty={(data) => data.count === 0} text={(key) => t(`list.${key}`)}>
        {(data) => (
          <ul className="admin-list">
            {data.results.map((sitting) => (
              <SittingItem key={sitting.id} sitting={sitting} />
            ))}
          </ul>
        )}
      </QueryStates>
      <section className="card" aria-labelledby="sitting-new">
        <h2 id="sitting-new">{t('list.new_title')}</h2>
        {created && <Alert kind="success">{t('list.created')}</Alert>}
        <SittingForm
          key={created?.id ?? 'new'}
          pending={create.isPending}
          submitLabel={t('list.create')}
          save={(fields, onError) =>
            create.mutate(
              { ...fields, held_at: fields.held_at },
              { onSuccess: (sitting) => setCreated(sitting), onError },
            )
          }
        />
      </section>
    </>
  )
}

function SittingItem({ sitting }: { sitting: Sitting }) {
  const { t } = useTranslation('sittings')
  const language = useLanguage()
  const name = useSittingName()
  const n = (value: number) => formatNumber(value, language)
  return (
    <li className="card admin-list__item">
      <div className="admin-list__main">
        <h3 className="admin-list__title">
          <Link to={paths.adminSitting(sitting.id)}>{name(sitting)}</Link>
        </h3>
        <p className="admin-list__meta">
          <span>{formatDateTime(sitting.held_at, language)}</span>
          <span>{t('list.sets', { sets: sitting.sets.join(', ') })}</span>
          <span>{t('list.roster', { count: sitting.roster_count, n: n(sitting.roster_count) })}</span>
          <span>{t('list.recorded', { n: n(sitting.scans.recorded) })}</span>
          {sitting.scans.needs_review > 0 && (
            <span className="badge badge--medium">{t('list.needs_review', { n: n(sitting.scans.needs_review) })}</span>
          )}
          {sitting.status === 'closed' && <span className="badge badge--unanswered">{t('list.closed')}</span>}
        </p>
      </div>
    </li>
  )
}
