import type { Kysely } from 'kysely'
import type { DB } from '../db/schema'

/** The mock's key, made by whichever process asks first: the insert of a second one does nothing. */
export async function findOrInsertPaperKey(db: Kysely<DB>, quizId: number, fresh: string, now: number) {
  const found = await db
    .selectFrom('live_paper_keys')
    .select('paper_key')
    .where('quiz_id', '=', quizId)
    .executeTakeFirst()
  if (found) return found.paper_key
  await db
    .insertInto('live_paper_keys')
    .values({ quiz_id: quizId, paper_key: fresh, created_at: now })
    .onConflict((oc) => oc.column('quiz_id').doNothing())
    .execute()
  const row = await db
    .selectFrom('live_paper_keys')
    .select('paper_key')
    .where('quiz_id', '=', quizId)
    .executeTakeFirstOrThrow()
  return row.paper_key
}
