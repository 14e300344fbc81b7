import type { Kysely } from 'kysely'
import type { DB, NewUserRow, UserRowUpdate } from '../db/schema'

/** The lower-cased form that users.username_key holds: usernames match case-insensitively. */
export const usernameKey = (username: string) => username.trim().toLowerCase()

export async function findUserById(db: Kysely<DB>, id: number) {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst()
}

export async function findUserByUsername(db: Kysely<DB>, username: string) {
  return db.selectFrom('users').selectAll().where('username_key', '=', usernameKey(username)).executeTakeFirst()
}

export async function findUserByPhone(db: Kysely<DB>, phoneNumber: string) {
  return db.selectFrom('users').selectAll().where('phone_number', '=', phoneNumber).executeTakeFirst()
}

export async function usernameExists(db: Kysely<DB>, username: string): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('username_key', '=', usernameKey(username))
    .executeTakeFirst()
  return row !== undefined
}

export async function languageOfPhone(db: Kysely<DB>, phoneNumber: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('users')
    .select('preferred_language')
    .where('phone_number', '=', phoneNumber)
    .executeTakeFirst()
  return row?.preferred_language
}

export async function phoneExists(db: Kysely<DB>, phoneNumber: string): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').where('phone_number', '=', phoneNumber).executeTakeFirst()
  return row !== undefined
}

export async function insertUser(db: Kysely<DB>, user: Omit<NewUserRow, 'username_key'>) {
  return db
    .insertInto('users')
    .values({ ...user, username_key: usernameKey(user.username) })
    .returning(['id', 'username', 'phone_number'])
    .executeTakeFirstOrThrow()
}

// The caller keeps batches small enough for both databases' parameter limits.
export async function insertUsers(db: Kysely<DB>, users: Omit<NewUserRow, 'username_key'>[]): Promise<number[]> {
  const rows = await db
    .insertInto('users')
    .values(users.map((user) => ({ ...user, username_key: usernameKey(user.username) })))
    .returning('id')
    .execute()
  return rows.map((row) => row.id)
}

export async function updateUser(db: Kysely<DB>, id: number, changes: UserRowUpdate): Promise<void> {
  await db.updateTable('users').set(changes).where('id', '=', id).execute()
}

export async function takenPhones(db: Kysely<DB>, candidates: string[]): Promise<Set<string>> {
  if (candidates.length === 0) return new Set()
  const rows = await db.selectFrom('users').select('phone_number').where('phone_number', 'in', candidates).execute()
  return new Set(rows.map((row) => row.phone_number))
}

export async function takenUsernameKeys(db: Kysely<DB>, candidates: string[]): Promise<Set<string>> {
  if (candidates.length === 0) return new Set()
  const rows = await db.selectFrom('users').select('username_key').where('username_key', 'in', candidates).execute()
  return new Set(rows.map((row) => row.username_key))
}

export async function usernamesOf(db: Kysely<DB>, userIds: readonly number[]) {
  const names = new Map<number, string>()
  const ids = [...new Set(userIds)]
  for (let start = 0; start < ids.length; start += 500)
    for (const row of await db
      .selectFrom('users')
      .select(['id', 'username'])
      .where('id', 'in', ids.slice(start, start + 500))
      .execute())
      names.set(row.id, row.username)
  return names
}
