import { sql } from 'kysely'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { dialects } from '../../test/dialects'
import { createBankQuestions, createUser } from '../../test/factories'
import { useTestApp } from '../../test/test-app'
import { createShowLog } from './show-log'

const silent = { error: () => undefined }

// The shown questions are written after the starts, in batches (docs/decisions/039); draws read them meanwhile.
describe.each(dialects)('the show log on %s', (dialect) => {
  const t = useTestApp(dialect)

  const storedShows = async (userId: number) =>
    new Map(
      (
        await t.db
          .selectFrom('question_shows')
          .select(['question_id', 'shown_at'])
          .where('user_id', '=', userId)
          .execute()
      ).map((row) => [row.question_id, Number(row.shown_at)]),
    )

  it('gives draws what it holds before writing it, and writes it on flush', async () => {
    const [a, b, c] = await createBankQuestions(t.db, 'history', 3, t.clock.now())
    const learner = await createUser(t.database)
    const other = await createUser(t.database)
    const log = createShowLog(t.db, silent)
    log.record(learner.id, [a!, b!], 1_000)
    log.record(learner.id, [b!], 2_000)

    expect(await storedShows(learner.id)).toEqual(new Map())
    expect(await log.lastShown(t.db, learner.id, [a!, b!, c!])).toEqual(
      new Map([
        [a!, 1_000],
        [b!, 2_000],
      ]),
    )
    expect(await log.lastShown(t.db, other.id, [a!, b!, c!])).toEqual(new Map())

    await log.flush()
    expect(await storedShows(learner.id)).toEqual(
      new Map([
        [a!, 1_000],
        [b!, 2_000],
      ]),
    )
    // Written once: a second flush has nothing to add.
    await log.flush()
    expect(await storedShows(learner.id)).toEqual(
      new Map([
        [a!, 1_000],
        [b!, 2_000],
      ]),
    )
  })

  it('never moves a show back in time when another process writes an older one later', async () => {
    const [a, b] = await createBankQuestions(t.db, 'history', 2, t.clock.now())
    const learner = await createUser(t.database)
    const first = createShowLog(t.db, silent)
    const second = createShowLog(t.db, silent)
    first.record(learner.id, [a!, b!], 5_000)
    await first.flush()
    second.record(learner.id, [a!], 4_000)
    second.record(learner.id, [b!], 6_000)
    await second.flush()
    expect(await storedShows(learner.id)).toEqual(
      new Map([
        [a!, 5_000],
        [b!, 6_000],
      ]),
    )
  })

  const storedSetShows = async () =>
    (
      await t.db
        .selectFrom('set_shows')
        .select(['user_id', 'set_id', 'shown_at'])
        .orderBy('user_id')
        .orderBy('set_id')
        .execute()
    ).map((row) => [row.user_id, row.set_id, Number(row.shown_at)])
  const storedSets = async () => {
    const sets = await t.db.selectFrom('shown_sets').select(['id', 'set_key']).orderBy('id').execute()
    const questions = await t.db
      .selectFrom('shown_set_questions')
      .select(['set_id', 'question_id'])
      .orderBy('set_id')
      .orderBy('question_id')
      .execute()
    return sets.map((set) => ({
      id: set.id,
      questions: questions.filter((row) => row.set_id === set.id).map((row) => row.question_id),
    }))
  }

  // A paper's shared questions are one set row, and one row per learner and set (docs/decisions/039).
  it('writes a set shown at many starts as one set and one row per learner, never a row per question', async () => {
    const questions = await createBankQuestions(t.db, 'history', 4, t.clock.now())
    const ram = await createUser(t.database)
    const sita = await createUser(t.database)
    const log = createShowLog(t.db, silent)
    const paper = [questions[2]!, questions[0]!, questions[1]!]
    log.recordSet(ram.id, paper, 1_000)
    log.recordSet(sita.id, paper, 1_500)
    log.recordSet(ram.id, paper, 2_000)
    // The same questions in another array and order are the same set.
    log.recordSet(sita.id, [...paper].reverse(), 2_500)
    await log.flush()

    const [set, ...others] = await storedSets()
    expect(others).toEqual([])
    expect(set!.questions).toEqual(questions.slice(0, 3))
    expect(await storedSetShows()).toEqual([
      [ram.id, set!.id, 2_000],
      [sita.id, set!.id, 2_500],
    ])
    expect(await storedShows(ram.id)).toEqual(new Map())
    // A later show of the set moves its row forward, an older one (another process's, written late) does not.
    log.recordSet(ram.id, paper, 3_000)
    log.recordSet(sita.id, paper, 2_200)
    await log.flush()
    expect(await storedSetShows()).toEqual([
      [ram.id, set!.id, 3_000],
      [sita.id, set!.id, 2_500],
    ])
    expect(await storedSets()).toEqual([set])
  })

  it('answers draws from questions shown alone, in sets, and what still waits, the latest of them', async () => {
    const [a, b, c, d, e, f] = await createBankQuestions(t.db, 'history', 6, t.clock.now())
    const learner = await createUser(t.database)
    const other = await createUser(t.database)
    const log = createShowLog(t.db, silent)
    log.record(learner.id, [a!, b!], 5_000)
    log.recordSet(learner.id, [b!, c!], 3_000)
    log.recordSet(other.id, [e!, f!], 9_000)
    await log.flush()
    log.recordSet(learner.id, [c!, d!], 4_000)
    log.record(learner.id, [e!], 6_000)

    const wanted = [a!, b!, c!, d!, e!, f!]
    const expected = new Map([
      [a!, 5_000],
      [b!, 5_000],
      [c!, 4_000],
      [d!, 4_000],
      [e!, 6_000],
    ])
    expect(await log.lastShown(t.db, learner.id, wanted)).toEqual(expected)
    // A pool of thousands reads the learner's rows whole and keeps the wanted ones.
    const large = [...wanted, ...Array.from({ length: 600 }, (_, i) => 1_000_000 + i)]
    expect(await log.lastShown(t.db, learner.id, large)).toEqual(expected)
    // Another process knows only what is written.
    const written = new Map([
      [a!, 5_000],
      [b!, 5_000],
      [c!, 3_000],
    ])
    expect(await createShowLog(t.db, silent).lastShown(t.db, learner.id, wanted)).toEqual(written)
    expect(await createShowLog(t.db, silent).lastShown(t.db, learner.id, large)).toEqual(written)

    await log.flush()
    expect(await createShowLog(t.db, silent).lastShown(t.db, learner.id, wanted)).toEqual(expected)
    expect(await log.lastShown(t.db, other.id, wanted)).toEqual(
      new Map([
        [e!, 9_000],
        [f!, 9_000],
      ]),
    )
  })

  it('makes one set when two processes write the same new set at once', async () => {
    const questions = await createBankQuestions(t.db, 'history', 5, t.clock.now())
    const ram = await createUser(t.database)
    const sita = await createUser(t.database)
    const errors: unknown[] = []
    const logging = { error: (object: unknown) => void errors.push(object) }
    const first = createShowLog(t.db, logging)
    const second = createShowLog(t.db, logging)
    first.recordSet(ram.id, questions, 1_000)
    second.recordSet(sita.id, [...questions].reverse(), 2_000)
    // Connections open beforehand, so that neither flush waits for one while the other makes the set.
    await Promise.all([1, 2, 3, 4].map(() => sql`select 1`.execute(t.db)))
    await Promise.all([first.flush(), second.flush()])

    expect(errors).toEqual([])
    const sets = await storedSets()
    expect(sets).toEqual([{ id: expect.any(Number), questions }])
    expect(await storedSetShows()).toEqual([
      [ram.id, sets[0]!.id, 1_000],
      [sita.id, sets[0]!.id, 2_000],
    ])
  })

  it('keeps what fails to be written for the next flush, and gives it to draws meanwhile', async () => {
    const [a, b, c] = await createBankQuestions(t.db, 'history', 3, t.clock.now())
    // A learner whose row is not there yet: the shows' foreign key refuses them.
    const learnerId = 9_999
    const errors: unknown[] = []
    const log = createShowLog(t.db, { error: (object: unknown) => void errors.push(object) })
    log.record(learnerId, [a!], 1_000)
    log.recordSet(learnerId, [b!, c!], 2_000)
    await log.flush()

    expect(errors).not.toEqual([])
    expect(await storedShows(learnerId)).toEqual(new Map())
    expect(await storedSetShows()).toEqual([])
    const held = new Map([
      [a!, 1_000],
      [b!, 2_000],
      [c!, 2_000],
    ])
    expect(await log.lastShown(t.db, learnerId, [a!, b!, c!])).toEqual(held)

    await createUser(t.database, { id: learnerId })
    await log.flush()
    expect(await createShowLog(t.db, silent).lastShown(t.db, learnerId, [a!, b!, c!])).toEqual(held)

    // A set alone: its set is made, its learner's row refused, and kept.
    const laterId = 10_000
    const failed = errors.length
    log.recordSet(laterId, [a!, b!], 3_000)
    await log.flush()
    expect(errors.length).toBeGreaterThan(failed)
    expect((await storedSetShows()).map(([userId]) => userId)).toEqual([learnerId])
    const heldSet = new Map([
      [a!, 3_000],
      [b!, 3_000],
    ])
    expect(await log.lastShown(t.db, laterId, [a!, b!, c!])).toEqual(heldSet)
    await createUser(t.database, { id: laterId })
    await log.flush()
    expect(await createShowLog(t.db, silent).lastShown(t.db, laterId, [a!, b!, c!])).toEqual(heldSet)
  })

  it('writes a large batch of many learners in one flush', async () => {
    const questions = await createBankQuestions(t.db, 'history', 100, t.clock.now())
    const learners = []
    for (let i = 0; i < 30; i++) learners.push(await createUser(t.database))
    const log = createShowLog(t.db, silent)
    for (const [i, learner] of learners.entries()) log.record(learner.id, questions, 10_000 + i)
    await log.flush()
    const count = await t.db
      .selectFrom('question_shows')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
    expect(Number(count.n)).toBe(3_000)
    expect((await storedShows(learners[29]!.id)).get(questions[99]!)).toBe(10_029)
  })

  describe('when it writes by itself', () => {
    afterEach(() => vi.useRealTimers())

    /** Lets a flush that a timer started reach the database and commit (its I/O is real, its timers fake). */
    const written = async (userId: number, count: number) => {
      for (let i = 0; i < 500 && (await storedShows(userId)).size < count; i++) {
        await new Promise((resolve) => setImmediate(resolve))
      }
      return storedShows(userId)
    }

    it('writes once no start has added to it for a quarter second', async () => {
      const [a, b] = await createBankQuestions(t.db, 'history', 2, t.clock.now())
      const learner = await createUser(t.database)
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] })
      const log = createShowLog(t.db, silent)
      log.record(learner.id, [a!], 1_000)
      await vi.advanceTimersByTimeAsync(200)
      log.record(learner.id, [b!], 1_200)
      await vi.advanceTimersByTimeAsync(200)
      expect(await storedShows(learner.id)).toEqual(new Map())
      await vi.advanceTimersByTimeAsync(50)
      expect(await written(learner.id, 2)).toEqual(
        new Map([
          [a!, 1_000],
          [b!, 1_200],
        ]),
      )
    })

    it('writes two seconds after the oldest show at the latest, while starts keep coming', async () => {
      const questions = await createBankQuestions(t.db, 'history', 30, t.clock.now())
      const learner = await createUser(t.database)
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] })
      const log = createShowLog(t.db, silent)
      for (const [i, question] of questions.slice(0, 19).entries()) {
        log.record(learner.id, [question], i * 100)
        await vi.advanceTimersByTimeAsync(100)
      }
      expect(await storedShows(learner.id)).toEqual(new Map())
      log.record(learner.id, [questions[19]!], 1_900)
      await vi.advanceTimersByTimeAsync(100)
      expect((await written(learner.id, 20)).size).toBe(20)
      await log.flush()
    })
  })
})
