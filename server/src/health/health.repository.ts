import { sql, type Kysely } from 'kysely'
import type { DB } from '../db/schema'

/** The smallest round trip to the database: throws when it cannot be reached. */
export async function pingDatabase(db: Kysely<DB>) {
  await sql`select 1`.execute(db)
}
