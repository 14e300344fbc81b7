import { describe, expect, it } from 'vitest'
import { createReadPool, PoolBusy, ReadRefused } from './pool'
import type { ReadJob } from './read-job'

const job: ReadJob = {
  input: { file: null, text: '1. Which?\nA. x\nB. y\nAnswer: A', format: undefined },
  legacyFont: 'auto',
  defaults: { tags: [] },
}

describe('the import worker pool', () => {
  it('reads a file into rows in a worker thread', async () => {
    const pool = createReadPool({ workers: 1, timeoutMs: 60_000, queue: 1, memoryMb: 256 })
    try {
      const result = await pool.read(job)
      expect(result).toMatchObject({ ok: true, format: 'text', rows: [{ row: 1, status: 'ok' }] })
      // A reader's refusal comes back as data, in the reader's words.
      expect(await pool.read({ ...job, input: { ...job.input, text: '<quiz', format: 'moodle_xml' } })).toMatchObject({
        ok: false,
        failure: { kind: 'unreadable' },
      })
    } finally {
      await pool.close()
    }
  })

  it('refuses a file that takes longer than its time, and reads the next on a new worker', async () => {
    // 1 ms: less than a worker takes to start, so the first file is always over its time.
    const pool = createReadPool({ workers: 1, timeoutMs: 1, queue: 1, memoryMb: 256 })
    try {
      const refused = await pool.read(job).catch((error: unknown) => error)
      expect(refused).toBeInstanceOf(ReadRefused)
      expect((refused as ReadRefused).reason).toBe('timeout')
      expect(pool.load()).toEqual({ reading: 0, waiting: 0 })
    } finally {
      await pool.close()
    }
  })

  it('keeps at most `queue` files waiting and refuses more at once', async () => {
    const pool = createReadPool({ workers: 1, timeoutMs: 60_000, queue: 1, memoryMb: 256 })
    try {
      const first = pool.read(job)
      const second = pool.read(job)
      await expect(pool.read(job)).rejects.toBeInstanceOf(PoolBusy)
      expect(pool.load()).toEqual({ reading: 1, waiting: 1 })
      await expect(first).resolves.toMatchObject({ ok: true })
      await expect(second).resolves.toMatchObject({ ok: true })
    } finally {
      await pool.close()
    }
  })
})
