import { useQuery } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { ApiError } from '../../../api/api-error'
import { Alert } from '../../../components/ui/alert'
import { Loading } from '../../../components/ui/loading'
import { paths } from '../../../lib/paths'
import { useRouteId } from '../../../lib/route-id'
import { useSittingName } from './sitting-title'
import { sittingQueries, type Sitting } from './sittings.api'
import '../admin.css'
import './sittings.css'
import './sittings.i18n'

interface SittingFrameProps {
  /** The screen's heading, given the sitting's name. */
  heading: (name: string) => string
  /** Where "back" goes: the sitting's page, or (from the sitting's page) the quiz's sittings. */
  back: 'sitting' | 'quiz'
  className?: string
  children: (sitting: Sitting) => ReactNode
}

/** A sitting's screen: the way back, the heading and the content once the sitting has loaded. */
export function SittingFrame({ heading, back, className, children }: SittingFrameProps) {
  const { t } = useTranslation('sittings')
  const name = useSittingName()
  const sittingId = useRouteId('sittingId')
  const sitting = useQuery({ ...sittingQueries.sitting(sittingId ?? 0), enabled: sittingId !== null })
  const classes = className ? `admin ${className}` : 'admin'
  if (sittingId !== null && sitting.data) {
    return (
      <div className={classes}>
        <p className="admin-back no-print">
          {back === 'quiz' ? (
            <Link to={paths.adminQuizSittings(sitting.data.quiz_id)}>{t('frame.back_to_quiz')}</Link>
          ) : (
            <Link to={paths.adminSitting(sitting.data.id)}>{t('frame.back_to_sitting')}</Link>
          )}
        </p>
        <h1 className="no-print">{heading(name(sitting.data))}</h1>
        {children(sitting.data)}
      </div>
    )
  }
  const notFound = sittingId === null || (sitting.error instanceof ApiError && sitting.error.status === 404)
  return (
    <div className="admin">
      <p className="admin-back">
        <Link to={paths.admin()}>{t('frame.back_to_dashboard')}</Link>
      </p>
      {notFound ? (
        <Alert kind="error">{t('frame.not_found')}</Alert>
      ) : sitting.isError ? (
        <Alert kind="error">{t('frame.load_failed')}</Alert>
      ) : (
        <Loading label={t('frame.loading')} />
      )}
    </div>
  )
}
