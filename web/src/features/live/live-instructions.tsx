import type { LiveInfo } from '@quiz/contracts'
import { useTranslation } from 'react-i18next'
import { useLanguage } from '../../i18n/use-bilingual'
import { formatNepalDateTime, formatNepalTime } from '../../lib/format'
import type { LivePhase } from './live-phase'
import './live.i18n'

/** The instructions screen's note on a live mock (WEB.md): the join window, and that a late start leaves less time. */
export function LiveInstructions({ live, phase }: { live: LiveInfo; phase: LivePhase }) {
  const { t } = useTranslation('live')
  const language = useLanguage()
  return (
    <section className="instructions__live" aria-labelledby="live-heading">
      <h2 id="live-heading">{t('instructions.title')}</h2>
      {phase === 'ended' ? (
        <p>{t('instructions.practice')}</p>
      ) : (
        <ul>
          <li>
            {t('instructions.window', {
              start: formatNepalDateTime(live.starts_at, language),
              join_end: formatNepalTime(live.join_ends_at, language),
            })}
          </li>
          <li>{t('instructions.late', { end: formatNepalTime(live.ends_at, language) })}</li>
          <li>{t('instructions.ranked')}</li>
        </ul>
      )}
    </section>
  )
}
