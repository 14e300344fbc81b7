import type { AppContext } from '../context'
import { pingDatabase } from './health.repository'

export type HealthService = ReturnType<typeof createHealthService>

export function createHealthService({ database }: Pick<AppContext, 'database'>) {
  return {
    /** Resolves when the database answers a round trip, throws when it cannot be reached. */
    async reachDatabase() {
      await pingDatabase(database.db)
    },
  }
}
