import type { LiveInfo } from '@quiz/contracts'
import { useTranslation } from 'react-i18next'
import { useLanguage } from '../../i18n/use-bilingual'
import { formatNepalDateTime, formatNepalTime } from '../../lib/format'
import type { LivePhase } from '../../lib/live-mock'
import './quiz.i18n'

/** The instructions screen's note on a live mock (WEB.md): the join window, and that a late start leaves less time. */
export function LiveNote({ live, phase }: { live: LiveInfo; phase: LivePhase }) {
  const { t } = useTranslation('quiz', { keyPrefix: 'live' })
  const language = useLanguage()
  return (
    <section className="instructions__live" aria-labelledby="live-heading">
      <h2 id="live-heading">{t('title')}</h2>
      {phase === 'ended' ? (
        <p>{t('practice_note')}</p>
      ) : (
        <ul>
          <li>
            {t('window', {
              start: formatNepalDateTime(live.starts_at, language),
              join_end: formatNepalTime(live.join_ends_at, language),
            })}
          </li>
          <li>{t('late', { end: formatNepalTime(live.ends_at, language) })}</li>
          <li>{t('ranked')}</li>
        </ul>
      )}
    </section>
  )
}
