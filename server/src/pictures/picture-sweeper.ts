import type { FastifyBaseLogger } from 'fastify'
import type { Config } from '../config'
import { createJobLoop, type JobLoop } from '../lib/job-loop'
import type { PicturesService } from './pictures.service'

export type PictureSweeper = JobLoop

// Every process runs one: two sweeping at once delete the same rows, which is harmless.
export function createPictureSweeper(
  { config }: { config: Pick<Config, 'pictureSweepIntervalMs'> },
  pictures: Pick<PicturesService, 'deleteUnused' | 'nameUnkeyed'>,
  log: Pick<FastifyBaseLogger, 'error' | 'info'>,
): PictureSweeper {
  async function sweep() {
    try {
      const renamed = await pictures.nameUnkeyed()
      if (renamed > 0) log.info({ renamed }, 'pictures: named with the server key')
      const deleted = await pictures.deleteUnused()
      if (deleted > 0) log.info({ deleted }, 'pictures: unused ones deleted')
    } catch (error) {
      log.error({ err: error }, 'pictures: the sweep failed; tried again next time')
    }
  }

  return createJobLoop(config.pictureSweepIntervalMs, sweep)
}
