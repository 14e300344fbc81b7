import type { Kysely } from 'kysely'
import type { DB } from '../db/schema'

export async function insertProfilePicture(
  db: Kysely<DB>,
  row: {
    id: string
    user_id: number
    content_type: string
    data: Buffer
    data_key: string
    data_size: number
    data_hash: string
    created_at: number
  },
): Promise<void> {
  await db.insertInto('profile_pictures').values(row).execute()
}

export async function findProfilePicture(db: Kysely<DB>, id: string) {
  return db
    .selectFrom('profile_pictures')
    .select(['content_type', 'data', 'data_key'])
    .where('id', '=', id)
    .executeTakeFirst()
}

// A replaced or removed picture stops being served at once; its file's name comes back for removal after the commit.
export async function deleteProfilePicturesOfUser(db: Kysely<DB>, userId: number, keepId: string | null) {
  let query = db.deleteFrom('profile_pictures').where('user_id', '=', userId)
  if (keepId !== null) query = query.where('id', '!=', keepId)
  const rows = await query.returning('data_key').execute()
  return rows.map((row) => row.data_key).filter((key): key is string => key !== null)
}
