import { userInfo } from 'node:os'
import { isDeepStrictEqual } from 'node:util'
import type { AuditAction, AuditEntityType } from '@quiz/contracts'
import type { FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import type { DB } from '../db/schema'
import { insertAuditEvent, insertAuditEvents } from './audit.repository'

// Called inside the transaction that makes the change: change and event commit or roll back together (decision 018).

export interface AuditActor {
  id: number | null
  username: string
  address: string | null
}

export type UserActor = AuditActor & { id: number }

export const actorOf = (request: FastifyRequest): UserActor => ({
  id: request.user.id,
  username: request.user.username,
  address: request.ip,
})

export function commandLineActor(): AuditActor {
  let account = 'unknown'
  try {
    account = userInfo().username
  } catch {
    // A container user without a passwd entry has no name; the event still says it came from the command line.
  }
  return { id: null, username: account, address: null }
}

export type AuditValues = Record<string, unknown>

export interface AuditEntry {
  action: AuditAction
  entityType: AuditEntityType
  entityId: number | null
  label: string
  before?: AuditValues | null
  after?: AuditValues | null
}

export const CHANGED = 'changed'
const SECRET_KEY = /password|token|secret|otp|hash/i

function withoutSecrets(values: AuditValues | null | undefined): string | null {
  if (!values) return null
  return JSON.stringify(values, (key, value: unknown) => (key !== '' && SECRET_KEY.test(key) ? CHANGED : value))
}

const eventRow = (actor: AuditActor, now: number, entry: AuditEntry) => ({
  occurred_at: now,
  actor_id: actor.id,
  actor_username: actor.username,
  client_address: actor.address,
  action: entry.action,
  entity_type: entry.entityType,
  entity_id: entry.entityId,
  entity_label: entry.label,
  before_json: withoutSecrets(entry.before),
  after_json: withoutSecrets(entry.after),
})

export async function recordAudit(trx: Kysely<DB>, actor: AuditActor, now: number, entry: AuditEntry): Promise<void> {
  await insertAuditEvent(trx, eventRow(actor, now, entry))
}

/** An event of the platform's own trail (docs/decisions/097): no institute's, read at /api/platform/audit/. */
export async function recordPlatformAudit(
  trx: Kysely<DB>,
  actor: AuditActor,
  now: number,
  entry: AuditEntry,
): Promise<void> {
  await insertAuditEvent(trx, eventRow(actor, now, entry), 'platform_audit_events')
}

/** One event each, written together: one person's one act touching many things (each answer a rubric re-scores). */
export async function recordAudits(
  trx: Kysely<DB>,
  actor: AuditActor,
  now: number,
  entries: readonly AuditEntry[],
): Promise<void> {
  await insertAuditEvents(
    trx,
    entries.map((entry) => eventRow(actor, now, entry)),
  )
}

export function changedFields(before: AuditValues, after: AuditValues): { before: AuditValues; after: AuditValues } {
  const changed = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
    (key) => !isDeepStrictEqual(before[key], after[key]),
  )
  return {
    before: Object.fromEntries(changed.map((key) => [key, before[key] ?? null])),
    after: Object.fromEntries(changed.map((key) => [key, after[key] ?? null])),
  }
}
