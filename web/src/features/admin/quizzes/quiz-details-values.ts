import { DIFFICULTIES } from '@quiz/contracts/rules/difficulty'
import { challengeDefaults, quizDefaults, type QuizPatch } from '@quiz/contracts'
import { writtenAnswerLimits } from '@quiz/contracts/rules/written-answers'
import { isoToLocalInput, localInputToIso } from '../datetime'
import { pairFields } from '../forms'
import type { AdminQuiz, Bilingual, Difficulty, QuizDetailsPayload } from './quizzes.api'

// The quiz details form's values: from a quiz or SPEC.md's defaults, and back to the request.

// SPEC.md section 9 and API.md: the form's defaults where the quiz has no value, as the server fills them.
const DEFAULT_DURATION = quizDefaults.duration_minutes
const DEFAULT_ATTEMPTS = quizDefaults.allowed_attempts
const DEFAULT_DIFFICULTY: Difficulty = quizDefaults.difficulty
const DEFAULT_CHALLENGE_DAYS = challengeDefaults.challenge_days
const DEFAULT_UPLOAD_GRACE = writtenAnswerLimits.uploadGraceMinutes.default
/** Join minutes offered when a quiz is first made a live mock (any of 1..180 may be typed). */
const DEFAULT_JOIN_MINUTES = 15

type Switches = Pick<Required<QuizPatch>, 'difficulty' | 'is_paid_tier' | 'shuffle_questions' | 'shuffle_options'>
/** The request's fields (QuizPatch) as the inputs hold them: numbers and local date-times as typed. */
export interface DetailsValues extends Switches {
  title: Bilingual
  start_time: string
  end_time: string
  duration_minutes: string
  allowed_attempts: string
  challenge_days: string
  /** Minutes after an attempt's deadline during which photos of written answers are still taken. */
  upload_grace_minutes: string
  /** The live schedule (API.md "Live mocks"), kept while unticked so ticking again restores it. */
  is_live: boolean
  live: { starts_at: string; join_minutes: string }
}

export function valuesFromQuiz(quiz: AdminQuiz): DetailsValues {
  return {
    title: { en: quiz.title.en, ne: quiz.title.ne ?? '' },
    start_time: isoToLocalInput(quiz.start_time),
    end_time: isoToLocalInput(quiz.end_time),
    duration_minutes: String(quiz.duration_minutes ?? DEFAULT_DURATION),
    allowed_attempts: String(quiz.allowed_attempts ?? DEFAULT_ATTEMPTS),
    challenge_days: String(quiz.challenge_days ?? DEFAULT_CHALLENGE_DAYS),
    upload_grace_minutes: String(quiz.upload_grace_minutes ?? DEFAULT_UPLOAD_GRACE),
    difficulty: DIFFICULTIES.includes(quiz.difficulty) ? quiz.difficulty : DEFAULT_DIFFICULTY,
    is_paid_tier: quiz.is_paid_tier ?? false,
    shuffle_questions: quiz.shuffle_questions ?? false,
    shuffle_options: quiz.shuffle_options ?? false,
    is_live: Boolean(quiz.live),
    live: {
      starts_at: isoToLocalInput(quiz.live?.starts_at),
      join_minutes: String(quiz.live?.join_minutes ?? DEFAULT_JOIN_MINUTES),
    },
  }
}

/** A new quiz: SPEC.md's defaults, opening now with no end, as the server would fill them. */
export function newQuizValues(): DetailsValues {
  return {
    title: { en: '', ne: '' },
    start_time: isoToLocalInput(new Date().toISOString()),
    end_time: '',
    duration_minutes: String(DEFAULT_DURATION),
    allowed_attempts: String(DEFAULT_ATTEMPTS),
    challenge_days: String(DEFAULT_CHALLENGE_DAYS),
    upload_grace_minutes: String(DEFAULT_UPLOAD_GRACE),
    difficulty: DEFAULT_DIFFICULTY,
    is_paid_tier: false,
    shuffle_questions: false,
    shuffle_options: false,
    is_live: false,
    live: { starts_at: '', join_minutes: String(DEFAULT_JOIN_MINUTES) },
  }
}

/** An emptied number input goes as null, for the server to name beside the field. */
const toInteger = (value: string) => (value.trim() === '' ? null : Number(value))

/**
 * The pickers show minutes only: a time left untouched keeps its exact stored value (seconds included)
 * instead of being rounded down to the minute on every save.
 */
function timeToSend(value: string, savedIso: string | null): string | null {
  if (savedIso && value === isoToLocalInput(savedIso)) return savedIso
  return localInputToIso(value)
}

// The server's field paths of PATCH /api/admin/quizzes/{id}/ and the fields that show them; the form's field names
// are the request's, so most map to themselves.
export const DETAIL_FIELDS: Record<string, string> = {
  ...pairFields('title'),
  ...Object.fromEntries(
    [
      'start_time',
      'end_time',
      'duration_minutes',
      'allowed_attempts',
      'difficulty',
      'is_paid_tier',
      'shuffle_questions',
      'shuffle_options',
      'challenge_days',
      'upload_grace_minutes',
      'live.starts_at',
      'live.join_minutes',
    ].map((path) => [path, path]),
  ),
  // A message about the schedule as a whole goes beside its start.
  live: 'live.starts_at',
}

/** The saved times the form was filled from: a time left as shown is sent back exactly (timeToSend). */
export interface SavedTimes {
  start: string | null
  end: string | null
  live: string | null
}

/** PATCH's (or POST's) body from the form's values. */
export function payloadOf(values: DetailsValues, saved: SavedTimes): QuizDetailsPayload {
  return {
    title: values.title,
    start_time: timeToSend(values.start_time, saved.start),
    end_time: timeToSend(values.end_time, saved.end),
    duration_minutes: toInteger(values.duration_minutes),
    allowed_attempts: toInteger(values.allowed_attempts),
    difficulty: values.difficulty,
    is_paid_tier: values.is_paid_tier,
    shuffle_questions: values.shuffle_questions,
    shuffle_options: values.shuffle_options,
    challenge_days: toInteger(values.challenge_days),
    upload_grace_minutes: toInteger(values.upload_grace_minutes),
    live: values.is_live
      ? {
          starts_at: timeToSend(values.live.starts_at, saved.live),
          join_minutes: toInteger(values.live.join_minutes),
        }
      : null,
  }
}
