import type { Kysely } from 'kysely'
import type { DB, FakeGatewayTransactionTable } from '../db/schema'

export async function insertFakeTransaction(db: Kysely<DB>, row: FakeGatewayTransactionTable) {
  await db.insertInto('fake_gateway_transactions').values(row).execute()
}

export async function findFakeTransaction(db: Kysely<DB>, ref: string) {
  return db.selectFrom('fake_gateway_transactions').selectAll().where('ref', '=', ref).executeTakeFirst()
}

// Only an open transaction can be decided.
export async function decideFakeTransaction(db: Kysely<DB>, ref: string, status: 'Completed' | 'User canceled') {
  await db
    .updateTable('fake_gateway_transactions')
    .set({ status })
    .where('ref', '=', ref)
    .where('status', '=', 'Initiated')
    .execute()
}
