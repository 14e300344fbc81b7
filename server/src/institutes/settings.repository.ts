import type { Kysely, Updateable } from 'kysely'
import type { DB, InstitutePaymentKeyTable, InstituteTable } from '../db/schema'

export type PaymentKeyProvider = InstitutePaymentKeyTable['provider']

export function findInstituteSettings(db: Kysely<DB>, id: number) {
  return db
    .selectFrom('institutes')
    .select(['id', 'name_en', 'name_ne', 'logo_hash', 'colour', 'sms_sender', 'open_registration'])
    .where('id', '=', id)
    .executeTakeFirst()
}
export type InstituteSettingsRow = NonNullable<Awaited<ReturnType<typeof findInstituteSettings>>>

export async function updateInstitute(db: Kysely<DB>, id: number, changes: Updateable<InstituteTable>) {
  if (Object.keys(changes).length === 0) return
  await db.updateTable('institutes').set(changes).where('id', '=', id).execute()
}

export function listPaymentKeys(db: Kysely<DB>, instituteId: number) {
  return db
    .selectFrom('institute_payment_keys')
    .select(['provider', 'public_id', 'secret_sealed'])
    .where('institute_id', '=', instituteId)
    .execute()
}
export type PaymentKeyRow = Awaited<ReturnType<typeof listPaymentKeys>>[number]

export async function savePaymentKey(
  db: Kysely<DB>,
  row: { institute_id: number; provider: PaymentKeyProvider; public_id: string | null; secret_sealed: string | null },
  now: number,
) {
  await db
    .insertInto('institute_payment_keys')
    .values({ ...row, updated_at: now })
    .onConflict((conflict) =>
      conflict
        .columns(['institute_id', 'provider'])
        .doUpdateSet({ public_id: row.public_id, secret_sealed: row.secret_sealed, updated_at: now }),
    )
    .execute()
}

export async function deletePaymentKey(db: Kysely<DB>, instituteId: number, provider: PaymentKeyProvider) {
  await db
    .deleteFrom('institute_payment_keys')
    .where('institute_id', '=', instituteId)
    .where('provider', '=', provider)
    .execute()
}
