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
            {/* The flame is decoration (the words say the streak); drawn, since not every phone has an emoji font. */}
            <svg
              className={streak.current > 0 ? 'daily-flame' : 'daily-flame daily-flame--out'}
              viewBox="0 0 16 20"
              width="16"
              height="20"
              aria-hidden="true"
              focusable="false"
            >
              <path d="M8 0C9 4 14 6.5 14 12.5A6 6 0 0 1 2 12.5C2 9.5 4 8 4.5 5.5 6 7 6.5 8.5 6.5 10 8.5 8 9 4 8 0Z" />
            </svg>{' '}
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
