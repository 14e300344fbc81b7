import { sql, type Kysely } from 'kysely'
import type { DB } from '../db/schema'

export async function pingDatabase(db: Kysely<DB>) {
  await sql`select 1`.execute(db)
}
