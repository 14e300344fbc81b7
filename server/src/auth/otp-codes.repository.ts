import type { Kysely } from 'kysely'
import type { Dialect } from '../db/database'
import type { DB } from '../db/schema'

export interface NewOtpCode {
  phone_number: string
  purpose: string
  code_hash: string
  created_at: number
  expires_at: number
}

// One statement, so two concurrent sends cannot both pass the 60 s cooldown.
export async function replaceCodeUnlessCoolingDown(
  db: Kysely<DB>,
  code: NewOtpCode,
  cooldownStart: number,
): Promise<boolean> {
  const row = await db
    .insertInto('otp_codes')
    .values({ ...code, failed_tries: 0, consumed_at: null })
    .onConflict((conflict) =>
      conflict
        .columns(['phone_number', 'purpose'])
        .doUpdateSet((eb) => ({
          code_hash: eb.ref('excluded.code_hash'),
          created_at: eb.ref('excluded.created_at'),
          expires_at: eb.ref('excluded.expires_at'),
          failed_tries: 0,
          consumed_at: null,
        }))
        .where('otp_codes.created_at', '<=', cooldownStart),
    )
    .returning('phone_number')
    .executeTakeFirst()
  return row !== undefined
}

export async function findCode(db: Kysely<DB>, phoneNumber: string, purpose: string) {
  return db
    .selectFrom('otp_codes')
    .selectAll()
    .where('phone_number', '=', phoneNumber)
    .where('purpose', '=', purpose)
    .executeTakeFirst()
}

// Locked on PostgreSQL so concurrent guesses are judged one at a time (SQLite's BEGIN IMMEDIATE serialises already).
export async function findCodeForUpdate(db: Kysely<DB>, dialect: Dialect, phoneNumber: string, purpose: string) {
  const query = db
    .selectFrom('otp_codes')
    .selectAll()
    .where('phone_number', '=', phoneNumber)
    .where('purpose', '=', purpose)
  return (dialect === 'postgres' ? query.forUpdate() : query).executeTakeFirst()
}

export async function recordFailedTry(db: Kysely<DB>, phoneNumber: string, purpose: string): Promise<void> {
  await db
    .updateTable('otp_codes')
    .set((eb) => ({ failed_tries: eb('failed_tries', '+', 1) }))
    .where('phone_number', '=', phoneNumber)
    .where('purpose', '=', purpose)
    .execute()
}

// Conditional, so a code is consumed once however many requests race for it.
export async function consumeCode(db: Kysely<DB>, phoneNumber: string, purpose: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('otp_codes')
    .set({ consumed_at: now })
    .where('phone_number', '=', phoneNumber)
    .where('purpose', '=', purpose)
    .where('consumed_at', 'is', null)
    .executeTakeFirst()
  return result.numUpdatedRows > 0n
}

// Only while it is still the one with this hash: a newer send must not be undone.
export async function deleteCode(
  db: Kysely<DB>,
  phoneNumber: string,
  purpose: string,
  codeHash: string,
): Promise<void> {
  await db
    .deleteFrom('otp_codes')
    .where('phone_number', '=', phoneNumber)
    .where('purpose', '=', purpose)
    .where('code_hash', '=', codeHash)
    .execute()
}

export async function markPhoneVerified(db: Kysely<DB>, phoneNumber: string, verifiedUntil: number): Promise<void> {
  await db
    .insertInto('phone_verifications')
    .values({ phone_number: phoneNumber, verified_until: verifiedUntil })
    .onConflict((conflict) => conflict.column('phone_number').doUpdateSet({ verified_until: verifiedUntil }))
    .execute()
}

export async function consumePhoneVerification(db: Kysely<DB>, phoneNumber: string, now: number): Promise<boolean> {
  const result = await db
    .deleteFrom('phone_verifications')
    .where('phone_number', '=', phoneNumber)
    .where('verified_until', '>', now)
    .executeTakeFirst()
  return result.numDeletedRows > 0n
}
