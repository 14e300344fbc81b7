import { sql, type Kysely, type Migration } from 'kysely'

// Frozen in time: change the schema with a new migration, never by editing this one.
// Issue 74 (docs/decisions/099): each institute's own Khalti and eSewa merchant keys, the secret sealed with
// AES-256-GCM (institutes/secret-box.ts). One row per institute and provider; a half-filled row (no secret) takes
// no payment. Keyed by the institute explicitly, as institute_hosts is: the deployment's table, read by id.
export const institutePaymentKeys = (): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('institute_payment_keys')
      .addColumn('institute_id', 'integer', (c) => c.notNull().references('institutes.id'))
      .addColumn('provider', 'text', (c) => c.notNull().check(sql`provider in ('khalti', 'esewa')`))
      /** Khalti's public key, eSewa's merchant (product) code. */
      .addColumn('public_id', 'text')
      .addColumn('secret_sealed', 'text')
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('institute_payment_keys_pkey', ['institute_id', 'provider'])
      .execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('institute_payment_keys').execute()
  },
})
