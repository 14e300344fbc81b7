import {
  dailyLimits,
  dailyMessages,
  liveMessages,
  fromHundredths,
  toHundredths,
  type DailyDay,
  type DailySettings,
  type DailySettingsBody,
  type DailyToday,
  type Leaderboard,
} from '@quiz/contracts'
import type { Kysely } from 'kysely'
import type { AppContext } from '../context'
import type { DB } from '../db/schema'
import { Conflict, NotFound, ValidationFailed } from '../http/errors'
import type { TokenUser } from '../http/tokens'
import { shuffled } from '../lib/random'
import { readBoard, standingOf } from '../outcomes/outcomes.service'
import { toScore } from '../questions/scoring'
import { addDays, bikramSambat, isCalendarDay, nepalDay, nepalInstant, nepalMidnight } from './nepal-days'
import { computeStreak } from './streak'
import * as repo from './daily.repository'

/** Questions of the last 30 days' sets are left out of a draw while the bank has enough others (API.md). */
export const AVOID_DAYS = 30

export const DEFAULT_SETTINGS: DailySettings = {
  enabled: false,
  topics: [],
  tags: [],
  count: 10,
  duration_minutes: 10,
  marks_correct: 1,
  marks_wrong: 0.2,
  publish_at: '05:00',
}

const dateOf = (day: string) => ({ ad: day, bs: bikramSambat(day) })

function toSettings(row: repo.DailySettingsRow | undefined): DailySettings {
  if (!row) return DEFAULT_SETTINGS
  return {
    enabled: row.enabled === 1,
    topics: JSON.parse(row.topics) as string[],
    tags: JSON.parse(row.tags) as string[],
    count: row.question_count,
    duration_minutes: row.duration_minutes,
    marks_correct: fromHundredths(row.marks_correct),
    marks_wrong: fromHundredths(row.marks_wrong),
    publish_at: row.publish_at,
  }
}

/**
 * The draw (docs/decisions/110): questions not used in the last 30 days' sets first, at random (cryptographic);
 * when those are too few, the ones used longest ago. Null when the bank holds fewer than `count`.
 */
export function drawQuestions(pool: readonly number[], used: ReadonlyMap<number, string>, count: number) {
  if (pool.length < count) return null
  const fresh = shuffled(pool.filter((id) => !used.has(id)))
  if (fresh.length >= count) return fresh.slice(0, count)
  const stale = shuffled(pool.filter((id) => used.has(id))).sort((a, b) => used.get(a)!.localeCompare(used.get(b)!))
  return [...fresh, ...stale.slice(0, count - fresh.length)]
}

export function createDailyService({ database, clock }: Pick<AppContext, 'database' | 'clock'>) {
  const { db } = database

  async function getSettings(): Promise<DailySettings> {
    return toSettings(await repo.findSettings(db))
  }

  async function putSettings(body: DailySettingsBody): Promise<DailySettings> {
    await database.transaction((trx) =>
      repo.saveSettings(trx, {
        enabled: body.enabled ? 1 : 0,
        topics: JSON.stringify(body.topics),
        tags: JSON.stringify(body.tags),
        question_count: body.count,
        duration_minutes: body.duration_minutes,
        marks_correct: toHundredths(body.marks_correct),
        marks_wrong: toHundredths(body.marks_wrong),
        publish_at: body.publish_at,
        updated_at: clock.now(),
      }),
    )
    return getSettings()
  }

  async function describeDays(rows: readonly repo.DailyDayRow[], from: string, to: string): Promise<DailyDay[]> {
    const byDay = new Map(rows.map((row) => [row.day, row]))
    const ids = rows.flatMap((row) => JSON.parse(row.question_ids ?? '[]') as number[])
    const [questions, figures] = await Promise.all([
      repo.questionsOf(db, ids),
      repo.attemptFigures(
        db,
        rows.flatMap((row) => (row.quiz_id === null ? [] : [row.quiz_id])),
      ),
    ])
    const days: DailyDay[] = []
    for (let day = from; day <= to; day = addDays(day, 1)) {
      const row = byDay.get(day)
      const figure = row?.quiz_id ? figures.get(row.quiz_id) : undefined
      days.push({
        date: dateOf(day),
        published: row?.published_at != null,
        fixed: row?.fixed === 1,
        quiz_id: row?.quiz_id ?? null,
        questions: (JSON.parse(row?.question_ids ?? '[]') as number[]).flatMap((id) => {
          const question = questions.get(id)
          return question ? [question] : []
        }),
        attempts: figure?.attempts ?? 0,
        mean: figure?.mean == null ? null : Math.round(figure.mean) / 100,
      })
    }
    return days
  }

  async function listDays(from: string, to: string): Promise<DailyDay[]> {
    if (!isCalendarDay(from)) throw new ValidationFailed({ from: [dailyMessages.date] })
    if (!isCalendarDay(to)) throw new ValidationFailed({ to: [dailyMessages.date] })
    if (from > to || addDays(from, dailyLimits.listDays - 1) < to)
      throw new ValidationFailed({ to: [dailyMessages.range] })
    return describeDays(await repo.listDays(db, from, to), from, to)
  }

  async function fixDay(day: string, questionIds: readonly number[]): Promise<DailyDay> {
    if (!isCalendarDay(day)) throw new ValidationFailed({ date: [dailyMessages.date] })
    const settings = await getSettings()
    if (questionIds.length !== settings.count)
      throw new ValidationFailed({ question_ids: [dailyMessages.questionCount] })
    if (new Set(questionIds).size !== questionIds.length)
      throw new ValidationFailed({ question_ids: [dailyMessages.repeated] })
    const live = await repo.liveChoiceQuestions(db, questionIds)
    const unknown = questionIds.findIndex((id) => !live.has(id))
    if (unknown >= 0) throw new ValidationFailed({ [`question_ids.${unknown}`]: [dailyMessages.unknownQuestion] })
    await database.transaction(async (trx) => {
      const row = await repo.lockDay(trx, database.dialect, day)
      if (row?.published_at != null) throw new Conflict(dailyMessages.dayPublished, 'day_published')
      if (day < nepalDay(clock.now())) throw new ValidationFailed({ date: [dailyMessages.dayOver] })
      await repo.fixDay(trx, day, questionIds)
    })
    const [described] = await describeDays([(await repo.findDay(db, day))!], day, day)
    return described!
  }

  /**
   * Publishes `day`'s set once: the day's row is the claim (its primary key), locked while the quiz is written, so
   * two processes, or a process and a learner's request, never publish it twice. Returns whether this call did.
   */
  async function publish(day: string, settings: DailySettings): Promise<boolean> {
    await repo.ensureDay(db, day)
    return database.transaction(async (trx) => {
      const row = await repo.lockDay(trx, database.dialect, day)
      if (!row || row.published_at !== null) return false
      const fixed = row.fixed === 1 ? (JSON.parse(row.question_ids ?? '[]') as number[]) : null
      // A fixed day whose questions left the bank since is drawn instead.
      const liveFixed = fixed && (await repo.liveChoiceQuestions(trx, fixed)).size === fixed.length ? fixed : null
      const questionIds =
        liveFixed ??
        drawQuestions(
          await repo.poolOf(trx, settings.topics, settings.tags),
          await repo.recentlyUsed(trx, addDays(day, -AVOID_DAYS)),
          settings.count,
        )
      if (!questionIds) return false
      const quizId = await createDayQuiz(trx, day, settings, questionIds)
      await repo.markPublished(trx, day, questionIds, quizId, clock.now())
      return true
    })
  }

  async function createDayQuiz(trx: Kysely<DB>, day: string, settings: DailySettings, questionIds: number[]) {
    const bs = bikramSambat(day)
    return repo.insertDayQuiz(
      trx,
      {
        title_en: `Daily set, ${day}`,
        title_ne: `दैनिक सेट, ${bs ?? day}`,
        start_time: Math.min(clock.now(), nepalInstant(day, settings.publish_at)),
        // Gone from the list after its day (API.md); an attempt started late ends at midnight.
        end_time: nepalMidnight(addDays(day, 1)),
        duration_minutes: settings.duration_minutes,
        is_paid_tier: 0,
        allowed_attempts: 1,
        difficulty: 'medium',
        created_at: clock.now(),
        deleted_at: null,
        draw_mode: 'per_attempt',
        status: 'published',
        daily_date: day,
      },
      { marks_correct: toHundredths(settings.marks_correct), marks_wrong: toHundredths(settings.marks_wrong) },
      questionIds,
    )
  }

  /** Today's set when its hour has come and it is not out yet (what the job and a learner's request both do). */
  async function publishDue(): Promise<boolean> {
    const settings = await getSettings()
    if (!settings.enabled) return false
    const now = clock.now()
    const day = nepalDay(now)
    if (now < nepalInstant(day, settings.publish_at)) return false
    const row = await repo.findDay(db, day)
    if (row?.published_at != null) return false
    return publish(day, settings)
  }

  async function today(user: TokenUser): Promise<DailyToday> {
    await publishDue()
    const now = clock.now()
    const day = nepalDay(now)
    const row = await repo.findDay(db, day)
    const quizId = row?.published_at != null ? row.quiz_id : null
    let attempted: DailyToday['attempted'] = null
    let questionCount: number | null = null
    let duration: number | null = null
    if (quizId !== null) {
      const quiz = await repo.dayQuiz(db, quizId)
      questionCount = quiz?.question_count ?? null
      duration = quiz?.duration_minutes ?? null
      const attempt = await repo.firstAttempt(db, user.id, quizId)
      if (attempt?.status === 'finished' && quiz)
        attempted = {
          attempt_id: attempt.id,
          score: toScore(attempt.score_hundredths ?? 0),
          max_score: toScore(quiz.question_count * quiz.marks_correct),
        }
    }
    return {
      date: dateOf(day),
      quiz_id: quizId,
      published: quizId !== null,
      question_count: questionCount,
      duration_minutes: duration,
      attempted,
      streak: await streakOf(user.id, day),
    }
  }

  async function streakOf(userId: number, day: string) {
    const [setDays, finished] = await Promise.all([repo.publishedDays(db, day), repo.finishedDailyDays(db, userId)])
    // Done on its own Nepal day only: a set finished after its midnight keeps no streak.
    const doneDays = new Set(
      finished.flatMap((row) =>
        row.daily_date !== null && row.finished_at !== null && nepalDay(row.finished_at) === row.daily_date
          ? [row.daily_date]
          : [],
      ),
    )
    return computeStreak({ setDays, doneDays, today: day })
  }

  async function leaderboard(user: TokenUser, day: string): Promise<Leaderboard> {
    if (!isCalendarDay(day)) throw new NotFound(dailyMessages.noDay)
    const row = await repo.findDay(db, day)
    if (!row || row.published_at === null || row.quiz_id === null) throw new NotFound(dailyMessages.noDay)
    // A daily quiz has no snapshot (no live schedule): readBoard computes the board as it stands.
    const board = await readBoard(db, row.quiz_id, Number.NaN)
    const names = await repo.boardNames(
      db,
      board.top.map((entry) => entry.user_id),
    )
    const standing = await standingOf(db, row.quiz_id, user.id)
    const nameOf = (id: number) => {
      const name = names.get(id)
      return !name || name.show_on_leaderboards === 0
        ? liveMessages.anonymousName
        : name.full_name.trim() || name.username
    }
    return {
      status: day < nepalDay(clock.now()) ? 'final' : 'running',
      participants: board.participants,
      top: board.top.map((entry) => ({
        rank: entry.rank,
        name: nameOf(entry.user_id),
        score: toScore(entry.score_hundredths),
      })),
      me: standing && { rank: standing.rank, percentile: standing.percentile, score: toScore(standing.score) },
    }
  }

  return { getSettings, putSettings, listDays, fixDay, publish, publishDue, today, leaderboard, streakOf }
}

export type DailyService = ReturnType<typeof createDailyService>
