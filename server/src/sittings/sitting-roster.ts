import { phoneInListing, sittingMessages, type Roster, type RosterInput, type SittingSet } from '@quiz/contracts'
import type { Kysely } from 'kysely'
import { recordAudit, type UserActor } from '../audit/audit-log'
import type { DB } from '../db/schema'
import { AppError, ValidationFailed, type FieldErrors } from '../http/errors'
import { setLetters } from './sitting-sets'
import { findSittingView, type SittingsDeps } from './sitting-view'
import {
  findUsersByPhones,
  findUsersByUsernameKeys,
  listRecordedPlaces,
  listRoster,
  replaceRoster,
  type RosterRow,
} from './sittings.repository'

/** A roster's phone number as the learner registered it ("+977 984-1000001" is 9841000001). */
const phoneOf = (text: string) => phoneInListing(text) ?? text.trim()

interface RosterEntry {
  userId: number
  rollNumber: number
  set: string
}

const learnerOf = (row: Pick<RosterRow, 'user_id' | 'username' | 'full_name'>) => ({
  id: row.user_id,
  username: row.username,
  full_name: row.full_name,
})

export function createSittingRoster({ database, clock }: SittingsDeps) {
  const { db } = database

  async function getRoster(sittingId: number): Promise<Roster> {
    await findSittingView(db, sittingId)
    return {
      roster: (await listRoster(db, sittingId)).map((row) => ({
        roll_number: row.roll_number,
        set: row.set_letter as SittingSet,
        user: learnerOf(row),
      })),
    }
  }

  /** A learner with a recorded sheet keeps their roll number, or the change is refused (docs/decisions/061). */
  async function checkRecordedPlaces(trx: Kysely<DB>, sittingId: number, entries: readonly RosterEntry[]) {
    const kept = new Set(entries.map((entry) => `${entry.rollNumber}:${entry.userId}`))
    const moved = (await listRecordedPlaces(trx, sittingId)).filter(
      (place) => !kept.has(`${place.roll_number}:${place.user_id}`),
    )
    if (moved.length > 0)
      throw new AppError(
        409,
        'conflict',
        sittingMessages.rollRecorded(moved.map((place) => ({ roll: place.roll_number, username: place.username }))),
        undefined,
        undefined,
        { roll_numbers: moved.map((place) => place.roll_number) },
      )
  }

  /** Any problem refuses the whole list, naming each entry, and nothing is stored. */
  async function putRoster(sittingId: number, body: RosterInput, actor: UserActor): Promise<Roster> {
    const now = clock.now()
    await database.transaction(async (trx) => {
      const sitting = await findSittingView(trx, sittingId, { lock: database.dialect === 'postgres' })
      const letters = setLetters(sitting.plans)
      const learners = body.learners
      const byName = new Map(
        (
          await findUsersByUsernameKeys(
            trx,
            learners.flatMap((entry) => (entry.username ? [entry.username.toLowerCase()] : [])),
          )
        ).map((user) => [user.username_key, user.id]),
      )
      const byPhone = new Map(
        (
          await findUsersByPhones(
            trx,
            learners.flatMap((entry) => (!entry.username && entry.phone_number ? [phoneOf(entry.phone_number)] : [])),
          )
        ).map((user) => [user.phone_number, user.id]),
      )
      const errors: FieldErrors = {}
      const fail = (path: string, message: string) => (errors[path] ??= []).push(message)
      const rolls = new Set<number>()
      const seen = new Set<number>()
      const userIds = learners.map((entry, index) => {
        const at = `learners.${index}`
        let userId: number | undefined
        if (entry.username) {
          userId = byName.get(entry.username.toLowerCase())
          if (userId === undefined) fail(`${at}.username`, sittingMessages.unknownUsername(entry.username))
        } else if (entry.phone_number) {
          userId = byPhone.get(phoneOf(entry.phone_number))
          if (userId === undefined) fail(`${at}.phone_number`, sittingMessages.unknownPhone(entry.phone_number))
        } else fail(at, sittingMessages.learnerMissing)
        if (userId !== undefined) {
          if (seen.has(userId)) fail(at, sittingMessages.repeatedLearner)
          seen.add(userId)
        }
        if (entry.roll_number !== undefined) {
          if (rolls.has(entry.roll_number)) fail(`${at}.roll_number`, sittingMessages.repeatedRoll(entry.roll_number))
          rolls.add(entry.roll_number)
        }
        if (entry.set !== undefined && !letters.includes(entry.set))
          fail(`${at}.set`, sittingMessages.setNotPrinted(entry.set, letters))
        return userId
      })
      const problems = Object.values(errors)
      if (problems.length > 0) throw new ValidationFailed(errors, problems[0]![0])
      let next = 1
      const entries = learners.map((entry, index) => {
        let rollNumber = entry.roll_number
        if (rollNumber === undefined) {
          while (rolls.has(next)) next++
          rollNumber = next
          rolls.add(next)
        }
        return { userId: userIds[index]!, rollNumber, set: entry.set ?? letters[index % letters.length]! }
      })
      await checkRecordedPlaces(trx, sittingId, entries)
      await replaceRoster(trx, sittingId, entries)
      await recordAudit(trx, actor, now, {
        action: 'update',
        entityType: 'sitting',
        entityId: sittingId,
        label: sitting.title_en,
        after: {
          roster: entries.map((entry) => ({ user_id: entry.userId, roll_number: entry.rollNumber, set: entry.set })),
        },
      })
    })
    return getRoster(sittingId)
  }

  return { getRoster, putRoster }
}
