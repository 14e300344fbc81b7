import type { Insertable, Kysely, Updateable } from 'kysely'
import type { DB, PlanTable } from '../db/schema'

export async function listPlans(db: Kysely<DB>, { activeOnly }: { activeOnly: boolean }) {
  let query = db.selectFrom('plans').selectAll()
  if (activeOnly) query = query.where('active', '=', 1)
  return query.orderBy('price_paisa').orderBy('id').execute()
}

export async function findPlanById(db: Kysely<DB>, id: number) {
  return db.selectFrom('plans').selectAll().where('id', '=', id).executeTakeFirst()
}

export async function insertPlan(db: Kysely<DB>, row: Insertable<PlanTable>) {
  return db.insertInto('plans').values(row).returningAll().executeTakeFirstOrThrow()
}

export async function updatePlan(db: Kysely<DB>, id: number, changes: Updateable<PlanTable>) {
  return db.updateTable('plans').set(changes).where('id', '=', id).returningAll().executeTakeFirst()
}
