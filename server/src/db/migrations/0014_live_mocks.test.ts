import { afterEach, describe, expect, it } from 'vitest'
import { dialects } from '../../../test/dialects'
import { openDatabaseAt, refused } from '../../../test/migration-database'
import { isUniqueViolation } from '../errors'
import { migrateToLatest } from '../migrate'

// A database an older server left: a quiz, a learner and a finished attempt. After the upgrade the quiz is an
// ordinary one, the attempt ranked, the learner on leaderboards by name without SMS reminders; the new tables hold
// one registration per learner and quiz, and one announcement per quiz, kind and schedule.
describe.each(dialects)('migration 0014_live_mocks on %s', (dialect) => {
  let drop: (() => Promise<void>) | undefined
  afterEach(async () => drop?.())

  it('leaves old quizzes ordinary and old attempts ranked, and keeps registrations and announcements single', async () => {
    const opened = await openDatabaseAt(dialect, '0013_key_challenges')
    drop = opened.drop
    const { database, insert } = opened
    const now = Date.now()
    const user = await insert('users', {
      username: 'ram',
      username_key: 'ram',
      phone_number: '9800000001',
      password_hash: 'x',
      created_at: now,
    })
    const quiz = await insert('quizzes', {
      title_en: 'Old quiz',
      title_ne: '',
      start_time: now - 86_400_000,
      end_time: null,
      duration_minutes: 10,
      is_paid_tier: 0,
      allowed_attempts: 3,
      difficulty: 'easy',
      created_at: now,
      deleted_at: null,
    })
    await insert('attempts', {
      user_id: user,
      quiz_id: quiz,
      attempt_number: 1,
      status: 'finished',
      started_at: now - 5000,
      deadline: now + 600_000,
      revision_ids: '[]',
      finished_at: now,
      score_hundredths: 0,
      correct: 0,
      incorrect: 0,
      unanswered: 0,
    })

    await migrateToLatest(database)

    const t = database.db
    expect(await t.selectFrom('quizzes').select(['live_starts_at', 'live_join_minutes']).execute()).toEqual([
      { live_starts_at: null, live_join_minutes: null },
    ])
    expect(await t.selectFrom('attempts').select('ranked').execute()).toEqual([{ ranked: 1 }])
    expect(await t.selectFrom('users').select(['sms_reminders', 'show_on_leaderboards']).execute()).toEqual([
      { sms_reminders: 0, show_on_leaderboards: 1 },
    ])

    const registration = { quiz_id: quiz, user_id: user, created_at: now }
    await t.insertInto('live_registrations').values(registration).execute()
    expect(isUniqueViolation(await refused(t.insertInto('live_registrations').values(registration).execute()))).toBe(
      true,
    )
    const announcement = { quiz_id: quiz, kind: 'results' as const, starts_at: now, due_at: now + 600_000 }
    const written = await t.insertInto('live_announcements').values(announcement).returningAll().executeTakeFirst()
    expect(written).toMatchObject({ status: 'pending', sent_at: null, recipients: null })
    expect(isUniqueViolation(await refused(t.insertInto('live_announcements').values(announcement).execute()))).toBe(
      true,
    )
    // Deleting the quiz takes its registrations and announcements with it.
    await t.deleteFrom('attempts').execute()
    await t.deleteFrom('quizzes').execute()
    expect(await t.selectFrom('live_registrations').selectAll().execute()).toEqual([])
    expect(await t.selectFrom('live_announcements').selectAll().execute()).toEqual([])
  })
})
