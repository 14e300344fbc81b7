import type { Plan, PlanInputSchema, PlanPatchSchema } from '@quiz/contracts'
import type { z } from 'zod'
import type { AppContext } from '../context'
import type { PlanRow } from '../db/schema'
import { NotFound } from '../http/errors'
import { findPlanById, insertPlan, listPlans, updatePlan } from './plans.repository'

export const toPlanDto = (row: PlanRow): Plan => ({
  id: row.id,
  name: { en: row.name_en, ne: row.name_ne },
  price_paisa: row.price_paisa,
  days: row.days,
  active: row.active === 1,
})

export function createPlanService({ database, clock }: Pick<AppContext, 'database' | 'clock'>) {
  const { db } = database
  return {
    async listActivePlans() {
      return (await listPlans(db, { activeOnly: true })).map(toPlanDto)
    },
    async listAllPlans() {
      return (await listPlans(db, { activeOnly: false })).map(toPlanDto)
    },
    async createPlan(input: z.output<typeof PlanInputSchema>) {
      const row = await database.transaction((trx) =>
        insertPlan(trx, {
          name_en: input.name.en,
          name_ne: input.name.ne,
          price_paisa: input.price_paisa,
          days: input.days,
          active: input.active ? 1 : 0,
          created_at: clock.now(),
        }),
      )
      return toPlanDto(row)
    },
    async updatePlan(id: number, patch: z.output<typeof PlanPatchSchema>) {
      const row = await database.transaction(async (trx) => {
        if (!(await findPlanById(trx, id))) return undefined
        return updatePlan(trx, id, {
          ...(patch.name && { name_en: patch.name.en, name_ne: patch.name.ne }),
          ...(patch.price_paisa !== undefined && { price_paisa: patch.price_paisa }),
          ...(patch.days !== undefined && { days: patch.days }),
          ...(patch.active !== undefined && { active: patch.active ? 1 : 0 }),
        })
      })
      if (!row) throw new NotFound('Plan not found.')
      return toPlanDto(row)
    },
  }
}
