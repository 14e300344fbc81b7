import type { Streak } from '@quiz/contracts'
import { useTranslation } from 'react-i18next'
import { formatNumber } from '../../lib/format'
import '../../i18n/daily.i18n'
import './daily.css'

/** The streak as WEB.md shows it: days with a flame, the best streak and the freezes left, each as text. */
export function StreakFacts({ streak }: { streak: Streak }) {
  const { t, i18n } = useTranslation('daily')
  const days = (count: number) => t('streak.days', { count, n: formatNumber(count, i18n.language) })
  return (
    <div className="daily-streak">
      <dl className="daily-streak__facts">
        <div className="daily-streak__current">
          <dt>{t('streak.title')}</dt>
          <dd>
            {/* The flame is decoration: the words say the streak. */}
            <span className={streak.current > 0 ? 'daily-flame' : 'daily-flame daily-flame--out'} aria-hidden="true">
              🔥
            </span>{' '}
            {days(streak.current)}
          </dd>
        </div>
        <div>
          <dt>{t('streak.best')}</dt>
          <dd>{days(streak.best)}</dd>
        </div>
        <div>
          <dt>{t('streak.freezes')}</dt>
          <dd>{formatNumber(streak.freezes_left, i18n.language)}</dd>
        </div>
      </dl>
      <p className="daily-streak__note">
        {streak.today_done ? t('streak.done') : t('streak.todo')} {t('streak.freezes_hint')}
      </p>
    </div>
  )
}
