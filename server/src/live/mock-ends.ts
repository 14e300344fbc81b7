import type { FastifyBaseLogger } from 'fastify'
import type { AttemptLifecycle } from '../attempts/attempts.service'
import type { AppContext } from '../context'
import { forEachInstitute, sum } from '../db/institute-jobs'
import { createBatchJob, type JobLoop } from '../lib/job-loop'
import { mockEnds, type DueMockEnd } from '../outcomes/outcomes.service'

export const END_BATCH = 20

/** Attempts finished per transaction before the claim: 50,000 unsubmitted must not hold their locks for minutes. */
export const END_CHUNK = 500

export interface MockEnder extends JobLoop {
  endDue(): Promise<number>
}

// At the common end plus grace, once whatever the processes: the snapshot's row is the claim (docs/decisions/063).
export function createMockEnder(
  { database, clock, config }: Pick<AppContext, 'database' | 'clock' | 'config'>,
  lifecycle: AttemptLifecycle,
  log: Pick<FastifyBaseLogger, 'error' | 'info'>,
  { chunk = END_CHUNK }: { chunk?: number } = {},
): MockEnder {
  // Each institute's mocks in its own scope: their attempts, boards and notifications are its (decision 098).
  async function pass(): Promise<number> {
    try {
      const withWork = { job: 'mock_ends', now: clock.now(), graceMs: lifecycle.graceMs } as const
      return sum(await forEachInstitute(database, 'live mock ends', passOfInstitute, { withWork }))
    } catch (error) {
      log.error({ err: error }, 'live mock ends: could not list the institutes')
      return 0
    }
  }

  async function passOfInstitute(): Promise<number> {
    let due: DueMockEnd[]
    try {
      due = await mockEnds.listDue(database.db, clock.now(), lifecycle.graceMs, END_BATCH)
    } catch (error) {
      log.error({ err: error }, 'live mock ends: could not read the due ones')
      return 0
    }
    let ended = 0
    for (const mock of due) {
      try {
        if (await end(mock)) ended++
      } catch (error) {
        log.error({ err: error, quiz: mock.id }, 'live mock ends: not ended; tried again by the next pass')
      }
    }
    return ended
  }

  async function end(mock: DueMockEnd): Promise<boolean> {
    // Chunks first, each committed; the claim's transaction finishes what is left and writes the board.
    const finishChunk = () =>
      lifecycle.attemptTransaction((trx) => lifecycle.finishExpiredOfQuiz(trx, mock.id, clock.now(), chunk))
    while ((await finishChunk()) === chunk);
    return lifecycle.attemptTransaction(async (trx) => {
      const now = clock.now()
      if (!(await mockEnds.claim(trx, mock, now))) return false
      const stillRunning = await lifecycle.settleQuiz(trx, mock.id, now)
      // Ranked attempts with extra time run on: the mock is passed over again once the last of them has run out.
      await mockEnds.writeBoard(trx, mock.id, now, stillRunning === null ? null : stillRunning + lifecycle.graceMs + 1)
      log.info({ quiz: mock.id }, 'live mock ends: board written')
      return true
    })
  }

  const job = createBatchJob(config.liveAnnouncementIntervalMs, END_BATCH, pass)
  return { start: job.start, stop: job.stop, endDue: job.runNow }
}
