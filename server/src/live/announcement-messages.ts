import { liveLimits } from '@quiz/contracts'
import type { LiveAnnouncementTable } from '../db/schema'
import { nepalDateTime } from '../lib/nepal-time'
import { DEFAULT_PUSH_TTL_SECONDS, type NewNotification } from '../notifications/notifications.service'

type Kind = LiveAnnouncementTable['kind']
type Title = { en: string; ne: string }

export interface Learner {
  id: number
  sms_reminders: number
  preferred_language: string
}

/** Push TTL, and so a text message's wait: the quarter-hour reminder 15 min, the day reminder hours, results a day. */
export const ANNOUNCEMENT_TTL_SECONDS: Record<Kind, number> = {
  reminder_day: 6 * 60 * 60,
  reminder_quarter: liveLimits.reminderMinutes[1] * 60,
  results: DEFAULT_PUSH_TTL_SECONDS,
}

export const quizLink = (quizId: number) => `/quiz/${quizId}/instructions`
export const leaderboardLink = (quizId: number) => `/quiz/${quizId}/leaderboard`

// They name the start, not "tomorrow": a late reminder stays true; no sign-in needed, as the login lasts (decision 069).
export function reminderText(title: Title, startsAt: number, kind: Kind = 'reminder_day') {
  const day = {
    en: `Reminder: the live mock “${title.en}” starts on ${nepalDateTime(startsAt, 'en')}.`,
    ne: `सम्झना: लाइभ मक “${title.ne}” ${nepalDateTime(startsAt, 'ne')} बजे सुरु हुन्छ।`,
  }
  if (kind !== 'reminder_quarter') return day
  return {
    en: `${day.en} You stay signed in on the device you registered on: no code by SMS is needed.`,
    ne: `${day.ne} दर्ता गरेको उपकरणमा तपाईं साइन इन नै रहनुहुन्छ: SMS कोड चाहिँदैन।`,
  }
}

export function resultsText(title: Title) {
  return {
    en: `Results of the live mock “${title.en}” are out: see your rank on the leaderboard.`,
    ne: `लाइभ मक “${title.ne}” को नतिजा आयो: अग्रता सूचीमा आफ्नो श्रेणी हेर्नुहोस्।`,
  }
}

export function announcementFor(
  kind: Kind,
  quiz: { id: number; title: Title; startsAt: number },
  learner: Learner,
): NewNotification {
  const push = { ttlSeconds: ANNOUNCEMENT_TTL_SECONDS[kind] }
  if (kind === 'results')
    return {
      userId: learner.id,
      kind: 'live_results',
      text: resultsText(quiz.title),
      link: leaderboardLink(quiz.id),
      push,
    }
  const text = reminderText(quiz.title, quiz.startsAt, kind)
  return {
    userId: learner.id,
    kind: 'live_reminder',
    text,
    link: quizLink(quiz.id),
    push,
    ...(learner.sms_reminders === 1 && {
      sms: { purpose: 'live_reminder', text: learner.preferred_language === 'ne' ? text.ne : text.en },
    }),
  }
}
