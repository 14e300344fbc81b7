import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { dialects } from '../../test/dialects'
import { createQuiz } from '../../test/factories'
import { createTestDatabase, dropTestDatabase, testConfig, useTestApp } from '../../test/test-app'
import { buildApp } from '../app'
import { fromPostgresPool, type Database } from '../db/database'
import { migrateToLatest } from '../db/migrate'
import { FakeClock, type Clock } from '../lib/clock'
import { mockEnderOn } from '../../test/mock-ender'
import { createDeliveryDrainer } from '../notifications/delivery-drainer'
import { createAnnouncementSender } from './announcement-sender'
import { scheduleAnnouncements } from './announcements.repository'

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR
const DURATION_MINUTES = 90
/** testConfig's submit grace: the mock's end job runs once the common end plus it has passed. */
const GRACE = 120_000
const silent = { error: () => {}, info: () => {} }

let usernames = 0

/** `count` learners in one statement per 500 (hashing passwords for 1,000 would be the test's whole time). */
async function insertLearners(
  database: Database,
  count: number,
  fields: { sms_reminders?: number; preferred_language?: string } = {},
): Promise<number[]> {
  const ids: number[] = []
  for (let done = 0; done < count; done += 500) {
    const rows = Array.from({ length: Math.min(500, count - done) }, () => {
      const n = ++usernames
      return {
        username: `live${n}`,
        username_key: `live${n}`,
        phone_number: `97${String(n).padStart(8, '0')}`,
        password_hash: 'x',
        created_at: 0,
        ...fields,
      }
    })
    const inserted = await database.db.insertInto('users').values(rows).returning('id').execute()
    ids.push(...inserted.map((row) => row.id))
  }
  return ids
}

async function register(database: Database, quizId: number, userIds: number[]) {
  for (let done = 0; done < userIds.length; done += 500)
    await database.db
      .insertInto('live_registrations')
      .values(userIds.slice(done, done + 500).map((user_id) => ({ quiz_id: quizId, user_id, created_at: 0 })))
      .execute()
}

async function subscribe(database: Database, userIds: number[]) {
  for (let done = 0; done < userIds.length; done += 500)
    await database.db
      .insertInto('push_subscriptions')
      .values(
        userIds.slice(done, done + 500).map((user_id) => ({
          user_id,
          endpoint: `https://push.example/${user_id}`,
          p256dh: 'key',
          auth: 'auth',
          created_at: 0,
        })),
      )
      .execute()
}

/** A quiz scheduled live at `startsAt`, with its announcements written as the quiz routes write them. */
async function liveMock(database: Database, startsAt: number, now: number, title = 'Loksewa mock 1') {
  const { quiz } = await createQuiz(
    database,
    {
      title_en: title,
      title_ne: 'लोकसेवा मक १',
      duration_minutes: DURATION_MINUTES,
      live_starts_at: startsAt,
      live_join_minutes: 10,
    },
    { questionCount: 1 },
  )
  await reschedule(database, quiz.id, startsAt, now)
  return quiz.id
}

async function reschedule(database: Database, quizId: number, startsAt: number, now: number) {
  await database.transaction(async (trx) => {
    await trx.updateTable('quizzes').set({ live_starts_at: startsAt }).where('id', '=', quizId).execute()
    await scheduleAnnouncements(trx, quizId, { startsAt, durationMinutes: DURATION_MINUTES }, now)
  })
}

/** The mock's end job, as some process runs it at the common end plus grace: results wait for its board. */
async function endMocks(database: Database, clock: Clock) {
  await mockEnderOn(database, clock).endDue()
}

const announcements = (database: Database) =>
  database.db.selectFrom('live_announcements').selectAll().orderBy('due_at').execute()

const notifications = (database: Database) =>
  database.db.selectFrom('notifications').selectAll().orderBy('user_id').orderBy('id').execute()

const deliveries = (database: Database) =>
  database.db.selectFrom('deliveries').selectAll().orderBy('user_id').orderBy('id').execute()

describe.each(dialects)('live mock announcements on %s', (dialect) => {
  const t = useTestApp(dialect)
  const sender = () => createAnnouncementSender(t, silent)
  // Two days ahead of the fake clock: 2026-11-24T07:00Z, 12:45 in Nepal, 8 Mangsir 2083.
  const startsAt = () => t.clock.now() + 2 * DAY

  it('sends a reminder once when due, to registered learners only: notification, pushes, SMS when asked', async () => {
    const start = startsAt()
    const quizId = await liveMock(t.database, start, t.clock.now())
    const [plain, texted, twoBrowsers, bystander] = [
      ...(await insertLearners(t.database, 1)),
      ...(await insertLearners(t.database, 1, { sms_reminders: 1, preferred_language: 'ne' })),
      ...(await insertLearners(t.database, 2)),
    ] as [number, number, number, number]
    await register(t.database, quizId, [plain, texted, twoBrowsers])
    await subscribe(t.database, [plain, twoBrowsers, bystander])
    await t.db
      .insertInto('push_subscriptions')
      .values({ user_id: twoBrowsers, endpoint: 'https://push.example/second', p256dh: 'k', auth: 'a', created_at: 0 })
      .execute()
    // The SMS opt-in is a registered learner's own; a bystander who asked for texts gets none either.
    await t.db.updateTable('users').set({ sms_reminders: 1 }).where('id', '=', bystander).execute()

    t.clock.set(start - DAY - 1)
    expect(await sender().sendDue()).toBe(0)
    expect(await notifications(t.database)).toEqual([])

    t.clock.set(start - DAY)
    expect(await sender().sendDue()).toBe(1)
    const sent = await notifications(t.database)
    expect(sent.map((row) => row.user_id)).toEqual([plain, texted, twoBrowsers])
    for (const row of sent)
      expect(row).toMatchObject({
        kind: 'live_reminder',
        link: `/quiz/${quizId}/instructions`,
        text_en: 'Reminder: the live mock “Loksewa mock 1” starts on 24 Nov 2026, 12:45 NPT.',
        text_ne: 'सम्झना: लाइभ मक “लोकसेवा मक १” २०८३ मंसिर ८, १२:४५ बजे सुरु हुन्छ।',
        created_at: start - DAY,
      })
    const queued = await deliveries(t.database)
    expect(queued.map((row) => [row.user_id, row.channel])).toEqual([
      [plain, 'push'],
      [texted, 'sms'],
      [twoBrowsers, 'push'],
      [twoBrowsers, 'push'],
    ])
    expect(queued.every((row) => row.ttl_seconds! > 900 && row.ttl_seconds! <= 6 * 3600)).toBe(true)
    expect(JSON.parse(queued[1]!.payload)).toEqual({ purpose: 'live_reminder', text: sent[1]!.text_ne })
    expect(await announcements(t.database)).toMatchObject([
      { kind: 'reminder_day', status: 'sent', sent_at: start - DAY, recipients: 3 },
      { kind: 'reminder_quarter', status: 'pending' },
      { kind: 'results', status: 'pending' },
    ])

    // Once: later passes, by this sender or another, find nothing more to send.
    t.clock.advance(20_000)
    expect(await sender().sendDue()).toBe(0)
    expect(await notifications(t.database)).toHaveLength(3)
    expect(await deliveries(t.database)).toHaveLength(4)
  })

  it('keeps the quarter-hour reminder’s pushes and text messages at most 15 minutes, and the SMS reaches the phone', async () => {
    const start = startsAt()
    const quizId = await liveMock(t.database, start, t.clock.now())
    const [learner] = await insertLearners(t.database, 1, { sms_reminders: 1 })
    await register(t.database, quizId, [learner!])
    await subscribe(t.database, [learner!])

    t.clock.set(start - 15 * MINUTE + 5_000)
    // The day reminder's time passed while no process ran; still before the start, it goes out now too.
    expect(await sender().sendDue()).toBe(2)
    const quarter = await t.db
      .selectFrom('deliveries')
      .selectAll()
      .where('ttl_seconds', '<=', 900)
      .orderBy('channel')
      .execute()
    expect(quarter.map((row) => [row.channel, row.ttl_seconds])).toEqual([
      ['push', 900],
      ['sms', 900],
    ])

    // The pushes' sending is the deliveries' tests' (their endpoints here lead nowhere); the text messages go.
    await t.db.deleteFrom('deliveries').where('channel', '=', 'push').execute()
    const drainer = createDeliveryDrainer(t, { ...silent, warn: () => {} })
    while ((await drainer.drainOnce()) > 0);
    const phone = (await t.db.selectFrom('users').select('phone_number').where('id', '=', learner!).executeTakeFirst())!
    expect(t.sms.sent.filter((message) => message.to === phone.phone_number)).toEqual([
      expect.objectContaining({ purpose: 'live_reminder', text: expect.stringContaining('12:45 NPT') }),
      expect.objectContaining({ purpose: 'live_reminder', text: expect.stringContaining('12:45 NPT') }),
    ])
  })

  it('skips a reminder whose time came while no process ran, once the mock has started', async () => {
    const start = startsAt()
    const quizId = await liveMock(t.database, start, t.clock.now())
    await register(t.database, quizId, await insertLearners(t.database, 2))

    t.clock.set(start)
    expect(await sender().sendDue()).toBe(2)
    expect(await notifications(t.database)).toEqual([])
    expect(await deliveries(t.database)).toEqual([])
    expect(await announcements(t.database)).toMatchObject([
      { kind: 'reminder_day', status: 'skipped', sent_at: null, recipients: null },
      { kind: 'reminder_quarter', status: 'skipped', sent_at: null, recipients: null },
      { kind: 'results', status: 'pending' },
    ])
  })

  it('skips the announcements of a deleted quiz', async () => {
    const start = startsAt()
    const quizId = await liveMock(t.database, start, t.clock.now())
    await register(t.database, quizId, await insertLearners(t.database, 1))
    await t.db.updateTable('quizzes').set({ deleted_at: t.clock.now() }).where('id', '=', quizId).execute()

    t.clock.set(start + DURATION_MINUTES * MINUTE)
    expect(await sender().sendDue()).toBe(3)
    expect(await notifications(t.database)).toEqual([])
    expect((await announcements(t.database)).map((row) => row.status)).toEqual(['skipped', 'skipped', 'skipped'])
  })

  it('tells registered learners the results are out once the end job wrote the board, even when late, without SMS', async () => {
    const start = startsAt()
    const quizId = await liveMock(t.database, start, t.clock.now())
    const registered = await insertLearners(t.database, 2, { sms_reminders: 1 })
    await register(t.database, quizId, registered)
    await subscribe(t.database, registered)
    await insertLearners(t.database, 1)
    const end = start + DURATION_MINUTES * MINUTE

    t.clock.set(end - 1)
    expect(await sender().sendDue()).toBe(2)
    expect(await notifications(t.database)).toEqual([])
    expect((await announcements(t.database)).at(-1)).toMatchObject({ kind: 'results', status: 'pending' })

    // A process that was down at the end sends it when it is back, and only after the end job's board.
    t.clock.set(end + 3 * HOUR)
    expect(await sender().sendDue()).toBe(0)
    expect(await notifications(t.database)).toEqual([])
    expect((await announcements(t.database)).at(-1)).toMatchObject({ kind: 'results', status: 'pending' })
    await endMocks(t.database, t.clock)
    expect(await sender().sendDue()).toBe(1)
    expect(await notifications(t.database)).toMatchObject(
      registered.map((userId) => ({
        user_id: userId,
        kind: 'live_results',
        link: `/quiz/${quizId}/leaderboard`,
        text_en: 'Results of the live mock “Loksewa mock 1” are out: see your rank on the leaderboard.',
        text_ne: 'लाइभ मक “लोकसेवा मक १” को नतिजा आयो: अग्रता सूचीमा आफ्नो श्रेणी हेर्नुहोस्।',
      })),
    )
    expect((await deliveries(t.database)).map((row) => row.channel)).toEqual(['push', 'push'])
    expect((await announcements(t.database)).at(-1)).toMatchObject({ status: 'sent', recipients: 2 })
  })

  it('sends the moved schedule’s reminders only', async () => {
    const first = startsAt()
    const quizId = await liveMock(t.database, first, t.clock.now())
    const [learner] = await insertLearners(t.database, 1)
    await register(t.database, quizId, [learner!])

    t.clock.set(first - DAY)
    expect(await sender().sendDue()).toBe(1)
    // Moved three hours later once its day reminder went out: the new schedule's reminders go at their times, the
    // old schedule's quarter-hour one never.
    const moved = first + 3 * HOUR
    await reschedule(t.database, quizId, moved, t.clock.now())
    t.clock.set(first - 15 * MINUTE)
    expect(await sender().sendDue()).toBe(1)
    t.clock.set(moved - 15 * MINUTE)
    expect(await sender().sendDue()).toBe(1)
    t.clock.set(moved + DURATION_MINUTES * MINUTE + GRACE + 1)
    await endMocks(t.database, t.clock)
    expect(await sender().sendDue()).toBe(1)

    expect((await notifications(t.database)).map((row) => [row.kind, row.text_en.match(/\d\d:\d\d/)?.[0]])).toEqual([
      ['live_reminder', '12:45'],
      ['live_reminder', '15:45'],
      ['live_reminder', '15:45'],
      ['live_results', undefined],
    ])
    expect((await announcements(t.database)).map((row) => [row.kind, row.starts_at === moved, row.status])).toEqual([
      ['reminder_day', false, 'sent'],
      ['reminder_day', true, 'sent'],
      ['reminder_quarter', true, 'sent'],
      ['results', true, 'sent'],
    ])
  })

  it('is started with the server: a reminder due while no process ran goes out on start, once', async () => {
    const start = startsAt()
    const quizId = await liveMock(t.database, start, t.clock.now())
    const learners = await insertLearners(t.database, 3)
    await register(t.database, quizId, learners)
    // A long interval: only the pass at start can send within the test.
    const serve = async () => {
      const app = await buildApp({ ...t, config: { ...t.config, liveAnnouncementIntervalMs: HOUR } }, { logger: false })
      await app.ready()
      return app
    }

    const before = await serve()
    await before.close()
    expect(await notifications(t.database)).toEqual([])

    t.clock.set(start - 2 * HOUR)
    const after = await serve()
    try {
      await vi.waitFor(async () =>
        expect((await announcements(t.database))[0]).toMatchObject({ kind: 'reminder_day', status: 'sent' }),
      )
    } finally {
      await after.close()
    }
    expect((await notifications(t.database)).map((row) => row.user_id)).toEqual(learners)
    expect(await sender().sendDue()).toBe(0)
    expect(await notifications(t.database)).toHaveLength(learners.length)
  })

  it('sends each reminder once when senders pass at the same time', async () => {
    const start = startsAt()
    const quizId = await liveMock(t.database, start, t.clock.now())
    const learners = await insertLearners(t.database, 50)
    await register(t.database, quizId, learners)

    t.clock.set(start - 10 * MINUTE)
    const senders = Array.from({ length: 4 }, sender)
    const settled = await Promise.all(senders.flatMap((s) => [s.sendDue(), s.sendDue()]))
    expect(settled.reduce((a, b) => a + b, 0)).toBe(2)
    const perLearner = await t.db
      .selectFrom('notifications')
      .select(['user_id', (eb) => eb.fn.countAll<number | string>().as('n')])
      .groupBy('user_id')
      .execute()
    expect(perLearner).toHaveLength(learners.length)
    expect(perLearner.every((row) => Number(row.n) === 2)).toBe(true)
  })

  it('tells 1,000 registered learners, in chunks of 300 each in its own transaction', async () => {
    const start = startsAt()
    const quizId = await liveMock(t.database, start, t.clock.now())
    const learners = await insertLearners(t.database, 1000)
    await register(t.database, quizId, learners)
    await subscribe(t.database, learners.slice(0, 500))
    await t.db.updateTable('users').set({ sms_reminders: 1 }).where('id', 'in', learners.slice(0, 250)).execute()

    t.clock.set(start - 15 * MINUTE)
    const began = performance.now()
    const chunked = createAnnouncementSender({ ...t, config: { ...t.config, liveAnnouncementChunk: 300 } }, silent)
    expect(await chunked.sendDue()).toBe(2)
    const took = Math.round(performance.now() - began)
    const count = async (table: 'notifications' | 'deliveries') =>
      Number(
        (
          await t.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number | string>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      )
    expect(await count('notifications')).toBe(2000)
    expect(await count('deliveries')).toBe(2 * (500 + 250))
    expect((await announcements(t.database)).slice(0, 2)).toMatchObject([
      { status: 'sent', recipients: 1000, done_through: learners.at(-1) },
      { status: 'sent', recipients: 1000, done_through: learners.at(-1) },
    ])
    console.info(`live reminders: 2 x 1,000 learners on ${dialect} in ${took} ms`)
  })
})

// Two server processes' worth of senders (each with its own connection pool) on one PostgreSQL database, passing
// at once over and over on the same due rows: each learner hears of each announcement once.
describe.runIf(process.env.TEST_DATABASE_URL)('live mock announcements from two processes on PostgreSQL', () => {
  let name: string
  let url: string
  beforeAll(async () => {
    ;({ name, url } = await createTestDatabase('quiz_live'))
  })
  afterAll(() => dropTestDatabase(name))

  it('sends each reminder and the results notice exactly once, in chunks of 40 the processes share', async () => {
    const databases = [0, 1].map(() => fromPostgresPool(new pg.Pool({ connectionString: url, max: 4 })))
    try {
      await migrateToLatest(databases[0]!)
      const clock = new FakeClock()
      const config = { ...testConfig(), liveAnnouncementChunk: 40 }
      const start = clock.now() + 2 * DAY
      const quizIds = [
        await liveMock(databases[0]!, start, clock.now(), 'Mock A'),
        await liveMock(databases[0]!, start + HOUR, clock.now(), 'Mock B'),
      ]
      const learners = await insertLearners(databases[0]!, 300, { sms_reminders: 1 })
      for (const quizId of quizIds) await register(databases[0]!, quizId, learners)
      await subscribe(databases[0]!, learners)
      // Three senders in each process: passes of one sender wait for each other, those of two senders do not.
      const senders = databases.flatMap((database) =>
        Array.from({ length: 3 }, () => createAnnouncementSender({ database, clock, config }, silent)),
      )
      const race = async () => {
        for (let round = 0; round < 5; round++) await Promise.all(senders.map((s) => s.sendDue()))
      }

      // Both day reminders; A's quarter-hour one; B's; both results notices.
      const passes = [start - DAY + HOUR, start - 15 * MINUTE, start + HOUR - 15 * MINUTE]
      for (const at of passes) {
        clock.set(at)
        await race()
      }
      clock.set(start + HOUR + DURATION_MINUTES * MINUTE + GRACE + 1)
      await Promise.all(databases.map((database) => endMocks(database, clock)))
      await race()

      const db = databases[0]!.db
      expect(
        (await db.selectFrom('live_announcements').select(['status', 'recipients']).execute()).every(
          (row) => row.status === 'sent' && row.recipients === learners.length,
        ),
      ).toBe(true)
      const counts = await db
        .selectFrom('notifications')
        .select([
          'kind',
          (eb) => eb.fn.countAll<string>().as('n'),
          (eb) => eb.fn.count<string>('user_id').distinct().as('users'),
        ])
        .groupBy('kind')
        .orderBy('kind')
        .execute()
      // Per learner: two reminders and a results notice for each of the two mocks.
      expect(counts.map((row) => [row.kind, Number(row.n), Number(row.users)])).toEqual([
        ['live_reminder', 4 * learners.length, learners.length],
        ['live_results', 2 * learners.length, learners.length],
      ])
      // Each announcement is one (mock's text, time sent) pair.
      const perLearnerAndText = await db
        .selectFrom('notifications')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .groupBy(['user_id', 'text_en', 'created_at'])
        .execute()
      expect(perLearnerAndText).toHaveLength(6 * learners.length)
      expect(perLearnerAndText.every((row) => Number(row.n) === 1)).toBe(true)
      const sms = await db
        .selectFrom('deliveries')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('channel', '=', 'sms')
        .executeTakeFirstOrThrow()
      expect(Number(sms.n)).toBe(4 * learners.length)
    } finally {
      for (const database of databases) await database.destroy()
    }
  })
})
