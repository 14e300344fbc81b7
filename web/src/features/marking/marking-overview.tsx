import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { ApiError } from '../../api/api-error'
import { Alert } from '../../components/ui/alert'
import { Button, buttonClass } from '../../components/ui/button'
import { Dialog } from '../../components/ui/dialog'
import { Loading } from '../../components/ui/loading'
import { useLanguage } from '../../i18n/use-bilingual'
import { formatNumber } from '../../lib/format'
import { paths } from '../../lib/paths'
import { markingKeys, markingQueries, releaseMarks, type MarkingOverview } from './marking.api'
import { RegradeQueue } from './regrade-queue'
import './marking.css'
import './marking.i18n'

const COUNTS = ['submitted', 'marked', 'released', 'claimed'] as const

/**
 * The counts in API.md's words, which do not overlap: `submitted` every answer of the quiz's finished attempts,
 * `marked` those marked and not yet released, `released` those released, `claimed` those being marked. So an
 * answer waits to be marked while `submitted - marked - released` is above 0, and `marked` alone is releasable.
 */
const answersToMark = (question: MarkingOverview['questions'][number]) =>
  question.submitted - question.marked - question.released

/**
 * A quiz's written questions with how many answers are submitted, marked, released and being marked; "Mark" opens
 * the marking screen on a question, "Release marks" sends every marked answer back to its learner after a check.
 * Below, the quiz's regrade requests.
 */
export function MarkingOverview({ quizId }: { quizId: number }) {
  const { t } = useTranslation('marking')
  const language = useLanguage()
  const queryClient = useQueryClient()
  const overview = useQuery(markingQueries.overview(quizId))
  const [confirming, setConfirming] = useState(false)
  const release = useMutation({
    mutationFn: () => releaseMarks(quizId),
    onSuccess: () => {
      setConfirming(false)
      void queryClient.invalidateQueries({ queryKey: markingKeys.overview(quizId) })
    },
  })
  const n = (value: number) => formatNumber(value, language)

  if (overview.isPending) return <Loading label={t('overview.loading')} />
  if (overview.isError) return <Alert kind="error">{t('overview.load_failed')}</Alert>
  const questions = overview.data.questions
  if (questions.length === 0) return <p className="card admin-empty">{t('overview.empty')}</p>
  const releasable = questions.reduce((sum, question) => sum + question.marked, 0)
  const numbers = new Map(questions.map((question) => [question.question_id, question.number]))

  return (
    <>
      <section className="marking-overview" aria-labelledby="marking-overview-heading">
        <h2 id="marking-overview-heading">{t('overview.heading')}</h2>
        <p className="muted">{t('overview.intro')}</p>
        <div className="marking-table-scroll">
          <table className="admin-table marking-table">
            <thead>
              <tr>
                <th scope="col">{t('overview.question')}</th>
                {COUNTS.map((count) => (
                  <th key={count} scope="col" className="admin-num">
                    {t(`overview.${count}`)}
                  </th>
                ))}
                <th scope="col">
                  <span className="visually-hidden">{t('overview.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {questions.map((question) => {
                const left = answersToMark(question)
                return (
                  <tr key={question.question_id}>
                    <th scope="row">{t('overview.question_number', { number: n(question.number) })}</th>
                    {COUNTS.map((count) => (
                      <td key={count} className="admin-num">
                        {n(question[count])}
                      </td>
                    ))}
                    <td>
                      <Link
                        className={buttonClass({ variant: left > 0 ? 'primary' : 'plain', small: true })}
                        to={paths.markQuestion(quizId, question.question_id)}
                        aria-label={t('overview.mark_question', { number: n(question.number) })}
                      >
                        {t('overview.mark')}
                      </Link>
                    </td>
                  </tr>
                )
              })}
            </tbody>
          </table>
        </div>
        <p>
          <Button variant="primary" disabled={releasable === 0} onClick={() => setConfirming(true)}>
            {t('overview.release')}
          </Button>{' '}
          <span className="muted">{t('overview.releasable', { count: releasable, number: n(releasable) })}</span>
        </p>
        {release.isSuccess && (
          <Alert kind="success">
            {t('overview.released', { count: release.data.released, number: n(release.data.released) })}
          </Alert>
        )}
        <Dialog
          open={confirming}
          title={t('overview.release_title')}
          onClose={() => setConfirming(false)}
          described
          actions={
            <>
              <Button variant="plain" onClick={() => setConfirming(false)}>
                {t('overview.cancel')}
              </Button>
              <Button variant="primary" disabled={release.isPending} onClick={() => release.mutate()}>
                {t('overview.release_confirm')}
              </Button>
            </>
          }
        >
          <p>{t('overview.release_body', { count: releasable, number: n(releasable) })}</p>
          {release.isError && (
            <Alert kind="error">
              {t(
                // A live mock's marks wait for its key (docs/decisions/090).
                release.error instanceof ApiError && release.error.code === 'key_withheld'
                  ? 'overview.release_key_withheld'
                  : 'overview.release_failed',
              )}
            </Alert>
          )}
        </Dialog>
      </section>
      <RegradeQueue quizId={quizId} numbers={numbers} />
    </>
  )
}
