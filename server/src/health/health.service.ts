import type { AppContext } from '../context'
import { pingDatabase } from './health.repository'

export type HealthService = ReturnType<typeof createHealthService>

export function createHealthService({ database }: Pick<AppContext, 'database'>) {
  return {
    async reachDatabase() {
      await pingDatabase(database.db)
    },
  }
}
