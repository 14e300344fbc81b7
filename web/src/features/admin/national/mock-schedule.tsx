import { useTranslation } from 'react-i18next'
import { useLanguage } from '../../../i18n/use-bilingual'
import { formatNepalDateTime, formatNumber } from '../../../lib/format'
import '../../../i18n/platform.i18n'

interface ScheduledMock {
  live: { starts_at: string; ends_at: string }
  question_count: number
  duration_minutes: number
}

/** A national mock's start, common end and size, as the institute's and the platform's lists both show it. */
export function MockSchedule({ mock }: { mock: ScheduledMock }) {
  const { t } = useTranslation('platform')
  const language = useLanguage()
  return (
    <p className="muted">
      <span>{t('national.starts', { when: formatNepalDateTime(mock.live.starts_at, language) })}</span>
      <br />
      <span>{t('national.ends', { when: formatNepalDateTime(mock.live.ends_at, language) })}</span>
      <br />
      <span>
        {t('national.questions', {
          count: mock.question_count,
          minutes: formatNumber(mock.duration_minutes, language),
        })}
      </span>
    </p>
  )
}
