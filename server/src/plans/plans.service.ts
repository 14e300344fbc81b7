import type { Plan, PlanInputSchema, PlanPatchSchema } from '@quiz/contracts'
import type { z } from 'zod'
import { changedFields, recordAudit, type AuditActor } from '../audit/audit-log'
import type { AppContext } from '../context'
import type { Kysely } from 'kysely'
import type { DB, PlanRow } from '../db/schema'
import { NotFound } from '../http/errors'
import { findPlanById as findPlan, insertPlan, listPlans, updatePlan } from './plans.repository'

function planValues(row: PlanRow) {
  const { id: _id, ...values } = toPlanDto(row)
  return values
}

export function findPlanById(db: Kysely<DB>, id: number) {
  return findPlan(db, id)
}

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
    async createPlan(input: z.output<typeof PlanInputSchema>, actor: AuditActor) {
      const row = await database.transaction(async (trx) => {
        const now = clock.now()
        const created = await insertPlan(trx, {
          name_en: input.name.en,
          name_ne: input.name.ne,
          price_paisa: input.price_paisa,
          days: input.days,
          active: input.active ? 1 : 0,
          created_at: now,
        })
        await recordAudit(trx, actor, now, {
          action: 'create',
          entityType: 'plan',
          entityId: created.id,
          label: created.name_en,
          after: planValues(created),
        })
        return created
      })
      return toPlanDto(row)
    },
    async updatePlan(id: number, patch: z.output<typeof PlanPatchSchema>, actor: AuditActor) {
      const row = await database.transaction(async (trx) => {
        const before = await findPlan(trx, id)
        if (!before) return undefined
        const after = await updatePlan(trx, id, {
          ...(patch.name && { name_en: patch.name.en, name_ne: patch.name.ne }),
          ...(patch.price_paisa !== undefined && { price_paisa: patch.price_paisa }),
          ...(patch.days !== undefined && { days: patch.days }),
          ...(patch.active !== undefined && { active: patch.active ? 1 : 0 }),
        })
        await recordAudit(trx, actor, clock.now(), {
          action: 'update',
          entityType: 'plan',
          entityId: id,
          label: after!.name_en,
          ...changedFields(planValues(before), planValues(after!)),
        })
        return after
      })
      if (!row) throw new NotFound('Plan not found.')
      return toPlanDto(row)
    },
  }
}

export type PlanService = ReturnType<typeof createPlanService>
