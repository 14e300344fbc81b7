import { createHash, randomBytes } from 'node:crypto'
import type { Profile, ProfileUpdateFields } from '@quiz/contracts'
import { changedFields, recordAudit, type UserActor } from '../audit/audit-log'
import type { Database } from '../db/database'
import type { FileStore } from '../files'
import type { UserRow, UserRowUpdate } from '../db/schema'
import { NotAuthenticated } from '../http/errors'
import type { Clock } from '../lib/clock'
import type { RateLimiter, RateLimitRules } from '../http/rate-limit'
import { reencodeProfilePicture } from './profile-picture'
import { deleteProfilePicturesOfUser, findProfilePicture, insertProfilePicture } from './profile-pictures.repository'
import { findUserById, updateUser } from '../accounts/users.repository'

/** The public path of a picture: its id is random (144 bits), so the URL itself is the only key. */
export const profilePicturePath = (id: string) => `/api/users/profile-pictures/${id}`

export function toProfileDto(user: UserRow): Profile {
  return {
    username: user.username,
    phone_number: user.phone_number,
    full_name: user.full_name,
    email: user.email,
    preferred_language: user.preferred_language === 'ne' ? 'ne' : 'en',
    profile_picture: user.profile_picture_id ? profilePicturePath(user.profile_picture_id) : null,
    sms_reminders: user.sms_reminders === 1,
    show_on_leaderboards: user.show_on_leaderboards === 1,
    daily_reminder: user.daily_reminder ?? null,
    screen_reader: user.screen_reader === 1,
  }
}

// A picture's URL is its only key: the trail says whether there is one and when it was replaced, never where it is.
function profileValues(user: UserRow, newPicture: boolean) {
  const { profile_picture: picture, username: _username, phone_number: _phone, ...values } = toProfileDto(user)
  return { ...values, profile_picture: picture === null ? null : newPicture ? 'new picture' : 'picture' }
}

export const isTrue = (value: string) => value === 'true' || value === '1' || value === 'on'

const userGone = () => new NotAuthenticated('The user of this token no longer exists.')

export function createProfileService({
  database,
  clock,
  limiter,
  rules,
  files,
}: {
  database: Database
  clock: Clock
  limiter: RateLimiter
  rules: RateLimitRules
  files: FileStore
}) {
  return {
    async getProfile(userId: number): Promise<Profile> {
      const user = await findUserById(database.db, userId)
      if (!user) throw userGone()
      return toProfileDto(user)
    },

    /** The picture, from the file store or, if kept before it, its row (docs/decisions/105); undefined if gone. */
    async picture(id: string) {
      const row = await findProfilePicture(database.db, id)
      const data = row && (row.data_key === null ? Buffer.from(row.data) : await files.get(row.data_key))
      return row && data && { content_type: row.content_type, data }
    },

    async updateProfile(
      actor: UserActor,
      {
        fields,
        picture,
        removePicture,
      }: { fields: Omit<ProfileUpdateFields, 'remove_picture'>; picture?: Buffer; removePicture: boolean },
    ): Promise<Profile> {
      // Counted before the decode, and a refused picture still counts (API.md).
      if (picture) await limiter.hit(rules.profilePicturePerUser, String(actor.id))
      // Decoding and encoding take a while: done before the transaction so no write lock waits on sharp.
      const encoded = picture ? await reencodeProfilePicture(picture) : undefined
      const now = clock.now()
      const userId = actor.id
      // The new picture goes to the file store before the transaction; a failed one removes it again (decision 105).
      const id = randomBytes(18).toString('base64url')
      const stored = encoded && {
        data: Buffer.alloc(0),
        data_key: `profile-pictures/${id}`,
        data_size: encoded.data.length,
        data_hash: createHash('sha256').update(encoded.data).digest('hex'),
      }
      // A write that failed may still have landed (an answer lost on its way back): its fresh name is no row's.
      if (encoded && stored)
        await files.put(stored.data_key, encoded.data, encoded.contentType).catch(async (error: unknown) => {
          await files.delete(stored.data_key).catch(() => {})
          throw error
        })
      let replaced: string[] = []
      const profile = await database
        .transaction(async (trx) => {
          const user = await findUserById(trx, userId)
          if (!user) throw userGone()
          const changes: UserRowUpdate = {}
          if (fields.full_name !== undefined) changes.full_name = fields.full_name
          if (fields.email !== undefined) changes.email = fields.email
          if (fields.preferred_language !== undefined) changes.preferred_language = fields.preferred_language
          if (fields.sms_reminders !== undefined) changes.sms_reminders = isTrue(fields.sms_reminders) ? 1 : 0
          if (fields.daily_reminder !== undefined)
            changes.daily_reminder =
              fields.daily_reminder === '' || fields.daily_reminder === 'null' ? null : fields.daily_reminder
          if (fields.show_on_leaderboards !== undefined)
            changes.show_on_leaderboards = isTrue(fields.show_on_leaderboards) ? 1 : 0
          if (fields.screen_reader !== undefined) changes.screen_reader = isTrue(fields.screen_reader) ? 1 : 0
          if (encoded && stored) {
            await insertProfilePicture(trx, {
              id,
              user_id: userId,
              content_type: encoded.contentType,
              ...stored,
              created_at: now,
            })
            replaced = await deleteProfilePicturesOfUser(trx, userId, id)
            changes.profile_picture_id = id
          } else if (removePicture) {
            replaced = await deleteProfilePicturesOfUser(trx, userId, null)
            changes.profile_picture_id = null
          }
          if (Object.keys(changes).length > 0) await updateUser(trx, userId, changes)
          const updated = (await findUserById(trx, userId))!
          await recordAudit(trx, actor, now, {
            action: 'update',
            entityType: 'user',
            entityId: userId,
            label: updated.username,
            ...changedFields(profileValues(user, false), profileValues(updated, encoded !== undefined)),
          })
          return toProfileDto(updated)
        })
        .catch(async (error: unknown) => {
          if (stored) await files.delete(stored.data_key).catch(() => {})
          throw error
        })
      // Only once the rows are gone for good: a rolled-back change keeps the pictures it would have replaced.
      for (const key of replaced) await files.delete(key).catch(() => {})
      return profile
    },
  }
}

export type ProfileService = ReturnType<typeof createProfileService>
