import type { Kysely } from 'kysely'
import type { DB } from '../db/schema'

/** Replaces a question's tags; a tag the bank already has (in any spelling) keeps its first spelling. */
export async function setTags(db: Kysely<DB>, questionId: number, tags: readonly string[]) {
  await db.deleteFrom('question_tags').where('question_id', '=', questionId).execute()
  if (tags.length === 0) return
  const keys = tags.map((tag) => tag.toLowerCase())
  await db
    .insertInto('tags')
    .values(tags.map((tag, index) => ({ name: tag, name_key: keys[index]! })))
    // Unique per institute (migration 0044): no target, as the institute is the filter's, not named here.
    .onConflict((oc) => oc.doNothing())
    .execute()
  const found = await db.selectFrom('tags').select(['id', 'name_key']).where('name_key', 'in', keys).execute()
  const idOf = new Map(found.map((row) => [row.name_key, row.id]))
  await db
    .insertInto('question_tags')
    .values(keys.map((key, index) => ({ question_id: questionId, tag_id: idOf.get(key)!, position: index + 1 })))
    .execute()
}
