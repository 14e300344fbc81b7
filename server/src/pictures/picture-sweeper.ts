import type { FastifyBaseLogger } from 'fastify'
import type { Config } from '../config'
import type { PicturesService } from './pictures.service'

export interface PictureSweeper {
  /** Sweeps now, then every `config.pictureSweepIntervalMs` (no-op when that is 0). */
  start(): void
  /** Stops sweeping and waits for the sweep in progress. */
  stop(): Promise<void>
}

/**
 * Deletes the pictures no question has used for 30 days (API.md "Pictures in questions"). Every process runs one;
 * two sweeping at once delete the same rows, which is harmless. A failed sweep is logged and tried again next time.
 */
export function createPictureSweeper(
  { config }: { config: Pick<Config, 'pictureSweepIntervalMs'> },
  pictures: Pick<PicturesService, 'deleteUnused'>,
  log: Pick<FastifyBaseLogger, 'error' | 'info'>,
): PictureSweeper {
  let timer: NodeJS.Timeout | undefined
  let stopped = true
  let running: Promise<void> | undefined

  async function sweep() {
    try {
      const deleted = await pictures.deleteUnused()
      if (deleted > 0) log.info({ deleted }, 'pictures: unused ones deleted')
    } catch (error) {
      log.error({ err: error }, 'pictures: the sweep failed; tried again next time')
    }
  }

  function schedule(delay: number) {
    if (stopped) return
    timer = setTimeout(async () => {
      running = sweep()
      await running
      running = undefined
      schedule(config.pictureSweepIntervalMs)
    }, delay)
    // The loop alone never keeps a process alive.
    timer.unref()
  }

  return {
    start() {
      if (!stopped || config.pictureSweepIntervalMs === 0) return
      stopped = false
      // At start too: a server restarted more often than daily would otherwise never sweep.
      schedule(0)
    },
    async stop() {
      stopped = true
      clearTimeout(timer)
      await running
    },
  }
}
