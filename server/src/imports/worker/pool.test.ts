import { describe, expect, it } from 'vitest'
import { createReadPool, PoolBusy, ReadRefused } from './pool'
import type { ReadJob } from './read-job'

const job: ReadJob = {
  input: { file: null, text: '1. Which?\nA. x\nB. y\nAnswer: A', format: undefined },
  legacyFont: 'auto',
  defaults: { tags: [] },
  pictureKey: 'test',
}

describe('the import worker pool', () => {
  it('reads a file into rows in a worker thread', async () => {
    const pool = createReadPool({ workers: 1, timeoutMs: 60_000, queue: 1, memoryMb: 256 })
    try {
      const result = await pool.read(job)
      expect(result).toMatchObject({ ok: true, format: 'text', count: 1 })
      if (!result.ok) throw new Error('read')
      expect(JSON.parse(result.rowsJson)).toMatchObject([{ row: 1, status: 'ok' }])
      expect(result.hashes).toHaveLength(1)

      // Settled against a bank that holds the question: the stored rows keep their hash, the answered ones do not.
      const settled = await pool.settle({ rowsJson: result.rowsJson, inBank: [[result.hashes[0]!, 7]] })
      expect(settled.summary).toEqual({ ok: 0, fixed: 0, rejected: 0, duplicate: 1 })
      expect(JSON.parse(settled.storedJson)).toMatchObject([{ hash: result.hashes[0], status: 'duplicate' }])
      expect(JSON.parse(settled.rowsJson)).toEqual([expect.not.objectContaining({ hash: expect.anything() })])
      expect(JSON.parse(settled.rowsJson)[0].duplicate_of).toEqual({ question_id: 7, row: null })
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

  it('refuses a file whose reading passes its heap limit', async () => {
    // A worker whose heap is smaller than the readers it loads always runs out of memory on its first file.
    const pool = createReadPool({ workers: 1, timeoutMs: 60_000, queue: 1, memoryMb: 4 })
    try {
      const refused = await pool.read(job).catch((error: unknown) => error)
      expect(refused).toBeInstanceOf(ReadRefused)
      expect((refused as ReadRefused).reason).toBe('memory')
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
