import { sql, type Kysely } from 'kysely'
import type { DB } from '../db/schema'

// One upsert statement, so concurrent requests in any number of processes never lose a hit.
export async function incrementCounter(db: Kysely<DB>, key: string, windowStart: number): Promise<number> {
  const row = await db
    .insertInto('rate_limit_counters')
    .values({ key, window_start: windowStart, hits: 1 })
    .onConflict((conflict) =>
      conflict.columns(['key', 'window_start']).doUpdateSet({ hits: sql<number>`rate_limit_counters.hits + 1` }),
    )
    .returning('hits')
    .executeTakeFirstOrThrow()
  return Number(row.hits)
}

export async function decrementCounter(db: Kysely<DB>, key: string, windowStart: number): Promise<void> {
  await db
    .updateTable('rate_limit_counters')
    .set({ hits: sql<number>`hits - 1` })
    .where('key', '=', key)
    .where('window_start', '=', windowStart)
    .where('hits', '>', 0)
    .execute()
}

export async function deleteCountersBefore(db: Kysely<DB>, windowStart: number): Promise<void> {
  await db.deleteFrom('rate_limit_counters').where('window_start', '<', windowStart).execute()
}

export async function deleteCountersOfKey(db: Kysely<DB>, key: string): Promise<void> {
  await db.deleteFrom('rate_limit_counters').where('key', '=', key).execute()
}

// A substring, not LIKE: usernames may hold `_`, which LIKE reads as any character.
export async function deleteCountersWithPrefix(db: Kysely<DB>, prefix: string): Promise<void> {
  await db
    .deleteFrom('rate_limit_counters')
    .where(sql<string>`substr(key, 1, ${prefix.length})`, '=', prefix)
    .execute()
}

export async function findCounter(db: Kysely<DB>, key: string, windowStart: number): Promise<number> {
  const row = await db
    .selectFrom('rate_limit_counters')
    .select('hits')
    .where('key', '=', key)
    .where('window_start', '=', windowStart)
    .executeTakeFirst()
  return Number(row?.hits ?? 0)
}
