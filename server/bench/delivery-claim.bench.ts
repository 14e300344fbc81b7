// What one claim of the delivery queue costs on PostgreSQL with many rows pending, as a live mock's reminders leave
// it (decision 084): a fresh database, USERS learners with PER_USER text messages each due now, then ROUNDS claims of
// LIMIT rows. ANALYZE=1 gathers the table's statistics first (a fresh queue has none until autovacuum comes by).
//   cd server && npx tsx bench/delivery-claim.bench.ts
//   cd server && USERS=20000 ANALYZE=1 npx tsx bench/delivery-claim.bench.ts
import pg from 'pg'
import { sql } from 'kysely'
import { createDatabase } from '../src/db/database'
import { migrateToLatest } from '../src/db/migrate'
import { claimDueDeliveries } from '../src/notifications/deliveries.repository'

const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
const users = Number(process.env.USERS ?? 2000)
const perUser = Number(process.env.PER_USER ?? 2)
const name = `delivery_claim_${process.pid}`
const admin = new pg.Client(adminUrl)
await admin.connect()
await admin.query(`create database ${name}`)
const url = new URL(adminUrl)
url.pathname = `/${name}`
const database = createDatabase({ kind: 'postgres', url: url.toString(), poolSize: 2, preparedStatements: false })
try {
  await migrateToLatest(database)
  const { db } = database
  const due = Date.now() - 1000
  await sql`insert into users (username, username_key, password_hash, phone_number, created_at)
    select 'u' || g, 'u' || g, 'x', '98' || lpad(g::text, 8, '0'), 0 from generate_series(1, ${users}) g`.execute(db)
  for (let copy = 0; copy < perUser; copy++)
    await sql`insert into deliveries (channel, user_id, payload, next_attempt_at, created_at)
      select 'sms', id, '{}', ${due}, ${due} from users`.execute(db)
  if (process.env.ANALYZE) await sql`analyze deliveries`.execute(db)
  console.log(
    `${users * perUser} rows pending (${users} learners), statistics ${process.env.ANALYZE ? 'gathered' : 'none'}`,
  )
  for (let round = 0; round < Number(process.env.ROUNDS ?? 5); round++) {
    const began = performance.now()
    const now = Date.now()
    const rows = await database.transaction((trx) =>
      claimDueDeliveries(trx, 'postgres', {
        worker: `w${round}`,
        now,
        until: now + 60_000,
        limit: Number(process.env.LIMIT ?? 10),
      }),
    )
    console.log(`claim ${round + 1}: ${rows.length} rows in ${(performance.now() - began).toFixed(1)} ms`)
  }
} finally {
  await database.destroy()
  await admin.query(`drop database ${name}`)
  await admin.end()
}
