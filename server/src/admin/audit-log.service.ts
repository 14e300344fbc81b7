import type { AuditAction, AuditEntityType, AuditEvent, AuditPage, AuditQuerySchema } from '@quiz/contracts'
import type { z } from 'zod'
import { countAuditEvents, pageAuditEvents, type AuditTable } from '../audit/audit.repository'
import type { Database } from '../db/database'
import { toIso } from '../lib/clock'

type AuditEventRow = Awaited<ReturnType<typeof pageAuditEvents>>[number]

const parsed = (json: string | null) => (json === null ? null : (JSON.parse(json) as Record<string, unknown>))

const toAuditEventDto = (row: AuditEventRow): AuditEvent => ({
  id: row.id,
  at: toIso(row.occurred_at),
  actor: { id: row.actor_id, username: row.actor_username },
  client_address: row.client_address,
  action: row.action as AuditAction,
  entity_type: row.entity_type as AuditEntityType,
  entity_id: row.entity_id,
  entity_label: row.entity_label,
  before: parsed(row.before_json),
  after: parsed(row.after_json),
})

/** An institute's trail, or with `table` the platform's own (docs/decisions/097). */
export function createAuditLogService({ database, table }: { database: Database; table?: AuditTable }) {
  return {
    async list(query: z.output<typeof AuditQuerySchema>): Promise<AuditPage> {
      const filter = {
        actor: query.actor || undefined,
        entityType: query.entity_type,
        entityId: query.entity_id,
        action: query.action,
        from: query.from === undefined ? undefined : Date.parse(query.from),
        to: query.to === undefined ? undefined : Date.parse(query.to),
      }
      const [count, rows] = await Promise.all([
        countAuditEvents(database.db, filter, table),
        pageAuditEvents(
          database.db,
          filter,
          {
            limit: query.page_size,
            offset: (query.page - 1) * query.page_size,
          },
          table,
        ),
      ])
      return { count, results: rows.map(toAuditEventDto) }
    },
  }
}

export type AuditLogService = ReturnType<typeof createAuditLogService>
