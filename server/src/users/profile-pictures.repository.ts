import type { Kysely } from 'kysely'
import type { DB } from '../db/schema'

export async function insertProfilePicture(
  db: Kysely<DB>,
  row: { id: string; user_id: number; content_type: string; data: Buffer; created_at: number },
): Promise<void> {
  await db.insertInto('profile_pictures').values(row).execute()
}

export async function findProfilePicture(db: Kysely<DB>, id: string) {
  return db.selectFrom('profile_pictures').select(['content_type', 'data']).where('id', '=', id).executeTakeFirst()
}

// A replaced or removed picture stops being served at once.
export async function deleteProfilePicturesOfUser(
  db: Kysely<DB>,
  userId: number,
  keepId: string | null,
): Promise<void> {
  let query = db.deleteFrom('profile_pictures').where('user_id', '=', userId)
  if (keepId !== null) query = query.where('id', '!=', keepId)
  await query.execute()
}
