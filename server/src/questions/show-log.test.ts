import { describe, expect, it } from 'vitest'
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
})
