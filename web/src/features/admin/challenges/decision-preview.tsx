import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { useLanguage } from '../../../i18n/use-bilingual'
import { formatNumber, formatScore } from '../../../lib/format'
import { TableHead, TableScroll } from '../ui'
import type { FlaggedQuestion, KeyDecisionResult } from './key-challenges.api'
import '../admin.i18n'

/** The server's dry run of a key decision: how many attempts and learners it touches, score by score, rank by rank. */
export function DecisionPreview({
  item,
  result,
  counted,
}: {
  item: FlaggedQuestion
  result: KeyDecisionResult
  /** The attempts and learners affected, in words. */
  counted: (result: KeyDecisionResult) => { attempts: string; learners: string }
}) {
  const { t } = useTranslation('admin')
  const language = useLanguage()
  const ids = useId()
  const n = (value: number) => formatNumber(value, language)
  const quizTitle = (quizId: number) => {
    const quiz = item.quizzes.find((candidate) => candidate.id === quizId)
    return quiz ? (language === 'ne' && quiz.title.ne ? quiz.title.ne : quiz.title.en) : `#${n(quizId)}`
  }

  return (
    <section className="key-preview" aria-labelledby={`${ids}-preview`}>
      <h3 id={`${ids}-preview`}>{t('key_challenges.preview.title')}</h3>
      <p role="status">
        {result.attempts_affected === 0
          ? t('key_challenges.preview.nothing')
          : t('key_challenges.preview.summary', counted(result))}
      </p>
      {result.score_changes.length > 0 && (
        <TableScroll label={t('key_challenges.preview.scores')}>
          <table className="admin-table">
            <caption>{t('key_challenges.preview.scores')}</caption>
            <TableHead
              columns={[
                { label: t('key_challenges.preview.learner') },
                { label: t('key_challenges.preview.attempt'), numeric: true },
                { label: t('key_challenges.preview.old_score'), numeric: true },
                { label: t('key_challenges.preview.new_score'), numeric: true },
              ]}
            />
            <tbody>
              {result.score_changes.map((change) => (
                <tr key={change.attempt_id}>
                  <td>{change.username}</td>
                  <td className="admin-num">{n(change.attempt_id)}</td>
                  <td className="admin-num">{formatScore(change.old_score, language)}</td>
                  <td className="admin-num">{formatScore(change.new_score, language)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      {result.rank_changes.length > 0 && (
        <TableScroll label={t('key_challenges.preview.ranks')}>
          <table className="admin-table">
            <caption>{t('key_challenges.preview.ranks')}</caption>
            <TableHead
              columns={[
                { label: t('key_challenges.preview.learner') },
                { label: t('key_challenges.preview.quiz') },
                { label: t('key_challenges.preview.old_rank'), numeric: true },
                { label: t('key_challenges.preview.new_rank'), numeric: true },
              ]}
            />
            <tbody>
              {result.rank_changes.map((change) => (
                <tr key={`${change.username}-${change.quiz_id}`}>
                  <td>{change.username}</td>
                  <td>{quizTitle(change.quiz_id)}</td>
                  <td className="admin-num">{n(change.old_rank)}</td>
                  <td className="admin-num">{n(change.new_rank)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  )
}
