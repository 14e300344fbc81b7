// The audit trail (docs/decisions/018): every admin write and every learner's change to their own account.
import { z } from 'zod'
import { IsoDateTimeSchema } from './common'
import { PageQuerySchema, PageSizeQuerySchema } from './institutions'

/** What an event is about. */
export const AuditEntityTypeSchema = z.enum([
  'quiz',
  'question',
  'plan',
  'user',
  'sitting',
  'scan',
  'written_answer',
  'institute',
  'national_mock',
  'passage',
])
export type AuditEntityType = z.infer<typeof AuditEntityTypeSchema>

/**
 * What was done. `update` on a user is an admin's change of access or extra time, or a learner's profile change
 * (the actor tells which); `logout` is a learner ending other logins; `admin_grant` is the command line's create-admin;
 * `login_failed` a wrong password for an admin, `login_locked` a login refused for too many failures (actor anonymous);
 * `rescore` a written answer's marks moved by a rubric change (one event an answer, beside the change's own `update`);
 * `act_as` a platform admin taking an admin token of an institute (in the platform's trail and the institute's).
 */
export const AuditActionSchema = z.enum([
  'create',
  'update',
  'delete',
  'publish',
  'unpublish',
  'duplicate',
  'password_reset',
  'password_change',
  'logout',
  'admin_grant',
  'key_decision',
  'login_failed',
  'login_locked',
  'mark',
  'release',
  'claim_end',
  'rescore',
  'act_as',
])
export type AuditAction = z.infer<typeof AuditActionSchema>

export const auditMessages = {
  fromAfterTo: '"from" must be before "to".',
} as const

export const AuditQuerySchema = z
  .object({
    /** A username, matched exactly but ignoring case. */
    actor: z.string().trim().max(150).optional(),
    entity_type: AuditEntityTypeSchema.optional(),
    entity_id: z.coerce.number().int().positive().max(2_147_483_647).optional(),
    action: AuditActionSchema.optional(),
    /** Inclusive. */
    from: IsoDateTimeSchema.optional(),
    /** Exclusive. */
    to: IsoDateTimeSchema.optional(),
    page: PageQuerySchema,
    page_size: PageSizeQuerySchema,
  })
  .refine((query) => !query.from || !query.to || Date.parse(query.from) < Date.parse(query.to), {
    message: auditMessages.fromAfterTo,
    path: ['to'],
  })
export type AuditQuery = z.input<typeof AuditQuerySchema>

/** The changed fields' values; a secret never appears, only that it changed (`"password": "changed"`). */
export const AuditValuesSchema = z.record(z.string(), z.unknown()).nullable()
export type AuditValues = z.infer<typeof AuditValuesSchema>

export const AuditEventSchema = z.object({
  id: z.number().int(),
  at: IsoDateTimeSchema,
  /** `id` is null when the command line made the change; `username` is then the system account that ran it. */
  actor: z.object({ id: z.number().int().nullable(), username: z.string() }),
  client_address: z.string().nullable(),
  action: AuditActionSchema,
  entity_type: AuditEntityTypeSchema,
  entity_id: z.number().int().nullable(),
  /** The entity's name when it happened: a quiz's English title, a question's first words, a username, a plan's name. */
  entity_label: z.string(),
  before: AuditValuesSchema,
  after: AuditValuesSchema,
})
export type AuditEvent = z.infer<typeof AuditEventSchema>

export const AuditPageSchema = z.object({ count: z.number().int(), results: z.array(AuditEventSchema) })
export type AuditPage = z.infer<typeof AuditPageSchema>
