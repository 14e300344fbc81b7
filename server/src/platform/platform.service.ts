import type {
  ActAs,
  PlatformInstitute,
  PlatformInstituteCreateSchema,
  PlatformInstitutePage,
  PlatformInstituteUpdateSchema,
} from '@quiz/contracts'
import { pictureMessages, picturePath } from '@quiz/contracts'
import type { Kysely } from 'kysely'
import type { z } from 'zod'
import { recordAudit, recordPlatformAudit, type AuditActor, type AuditEntry } from '../audit/audit-log'
import type { Config } from '../config'
import type { Database } from '../db/database'
import { inRequestScope } from '../db/request-scope'
import type { DB } from '../db/schema'
import { NotFound, ValidationFailed } from '../http/errors'
import type { TokenSigner } from '../http/tokens'
import type { InstitutesService } from '../institutes/institutes.service'
import type { Clock } from '../lib/clock'
import { decodeDataUrl, type PictureRefusal } from '../pictures/picture-encoding'
import type { PicturesService } from '../pictures/pictures.service'
import { nepalMonthStart } from './nepal-month'
import {
  findPlatformAdmin,
  findPlatformInstitute,
  hostsOf,
  logosOf,
  pageInstitutes,
  updateInstituteSettings,
  usageOf,
  type PlatformInstituteRow,
} from './platform.repository'

type CreateInput = z.output<typeof PlatformInstituteCreateSchema>
type UpdateInput = z.output<typeof PlatformInstituteUpdateSchema>

const refusals: Record<PictureRefusal, string> = {
  not_a_picture: pictureMessages.notAPicture,
  too_large: pictureMessages.tooLarge,
  too_many_pixels: pictureMessages.tooManyPixels,
  too_costly: pictureMessages.tooCostly,
}

/** What the platform's trail and an update's event say of an institute: its settings, not its usage. */
const settingsOf = (institute: PlatformInstitute) => ({
  name: institute.name,
  hosts: institute.hosts,
  status: institute.status,
  colour: institute.colour,
  open_registration: institute.open_registration,
  logo: institute.logo?.url ?? null,
})

export function createPlatformService({
  database,
  clock,
  tokens,
  institutes,
  pictures,
}: {
  database: Database
  config: Config
  clock: Clock
  tokens: TokenSigner
  institutes: InstitutesService
  pictures: PicturesService
}) {
  const { db } = database

  async function toDtos(rows: readonly PlatformInstituteRow[]): Promise<PlatformInstitute[]> {
    const ids = rows.map((row) => row.id)
    const logoHashes = rows.flatMap((row) => (row.logo_hash ? [row.logo_hash] : []))
    const [hosts, logos, usage] = await Promise.all([
      hostsOf(db, ids),
      logosOf(db, logoHashes),
      usageOf(db, database.dialect, ids, nepalMonthStart(clock.now())),
    ])
    const logoBy = new Map(logos.map((logo) => [logo.hash, logo]))
    const usageBy = new Map(usage.map((row) => [row.id, row]))
    return rows.map((row) => {
      const logo = row.logo_hash ? logoBy.get(row.logo_hash) : undefined
      const used = usageBy.get(row.id)
      return {
        id: row.id,
        slug: row.slug,
        name: { en: row.name_en, ne: row.name_ne },
        hosts: hosts.filter((host) => host.institute_id === row.id).map((host) => host.host),
        logo: logo ? { url: picturePath(logo.hash), width: logo.width, height: logo.height } : null,
        colour: row.colour,
        sms_sender: row.sms_sender,
        open_registration: row.open_registration === 1,
        status: row.status,
        usage: {
          learners: used?.learners ?? 0,
          admins: used?.admins ?? 0,
          attempts_this_month: used?.attempts_this_month ?? 0,
          file_bytes: used?.file_bytes ?? 0,
        },
      }
    })
  }

  async function get(id: number): Promise<PlatformInstitute> {
    const row = await findPlatformInstitute(db, id)
    if (!row) throw new NotFound('No such institute.')
    return (await toDtos([row]))[0]!
  }

  /** A logo as question images take a picture: stored re-encoded, named by its keyed hash; null removes it. */
  async function logoHash(logo: { picture: string } | null | undefined): Promise<string | null | undefined> {
    if (logo === undefined || logo === null) return logo
    const bytes = decodeDataUrl(logo.picture)
    const stored = typeof bytes === 'string' ? bytes : await pictures.store(bytes, { used: false })
    if (typeof stored === 'string') throw new ValidationFailed({ 'logo.picture': [refusals[stored]] })
    return /([0-9a-f]{64})\.webp$/.exec(stored.url)![1]!
  }

  const entry = (action: AuditEntry['action'], id: number, label: string, extra: Partial<AuditEntry> = {}) => ({
    action,
    entityType: 'institute' as const,
    entityId: id,
    label,
    ...extra,
  })

  return {
    async list(query: { page: number; page_size: number }): Promise<PlatformInstitutePage> {
      const { count, rows } = await pageInstitutes(db, {
        limit: query.page_size,
        offset: (query.page - 1) * query.page_size,
      })
      return { count, results: await toDtos(rows) }
    },

    get,

    async create(input: CreateInput, actor: AuditActor): Promise<PlatformInstitute> {
      const logo = await logoHash(input.logo)
      const id = await institutes.create(input, async (trx: Kysely<DB>, made: number) => {
        await updateInstituteSettings(trx, made, {
          ...(input.colour !== undefined && { colour: input.colour.toLowerCase() }),
          ...(input.open_registration !== undefined && { open_registration: input.open_registration ? 1 : 0 }),
          ...(logo !== undefined && { logo_hash: logo }),
        })
        await recordPlatformAudit(
          trx,
          actor,
          clock.now(),
          entry('create', made, input.slug, { after: { slug: input.slug, name: input.name, hosts: input.hosts } }),
        )
      })
      // Stored on the platform's host: the institute's own host answers its logo only with its use (decision 100).
      if (logo) await pictures.useIn(id, [logo])
      return get(id)
    },

    async update(id: number, input: UpdateInput, actor: AuditActor): Promise<PlatformInstitute> {
      const before = await get(id)
      const logo = await logoHash(input.logo)
      if (logo) await pictures.useIn(id, [logo])
      await institutes.update(
        id,
        {
          ...(input.name && { name: input.name }),
          ...(input.hosts && { hosts: input.hosts }),
          ...(input.status && { status: input.status }),
          ...(input.colour !== undefined && { colour: input.colour.toLowerCase() }),
          ...(input.open_registration !== undefined && { open_registration: input.open_registration ? 1 : 0 }),
          ...(logo !== undefined && { logo_hash: logo }),
        },
        async (trx) => {
          const after = { ...settingsOf(before), ...input, ...(logo !== undefined && { logo }) }
          await recordPlatformAudit(
            trx,
            actor,
            clock.now(),
            entry('update', id, before.slug, { before: settingsOf(before), after }),
          )
        },
      )
      return get(id)
    },

    /**
     * An admin token of the institute for 15 minutes (a suspended one included), no refresh; in the platform's trail
     * and, in the institute's scope so that the row is its, in the institute's (API.md "Platform admins").
     */
    async actAs(id: number, actor: AuditActor & { id: number }): Promise<ActAs> {
      const institute = await findPlatformInstitute(db, id)
      if (!institute) throw new NotFound('No such institute.')
      const user = await findPlatformAdmin(db, actor.id)
      if (!user) throw new NotFound('No such user.')
      const now = clock.now()
      const event = entry('act_as', id, institute.slug, { after: { institute: institute.slug, minutes: 15 } })
      await database.transaction(async (trx) => {
        await recordPlatformAudit(trx, actor, now, event)
        await inRequestScope({ requestId: `act-as-${id}`, institute: id }, () => recordAudit(trx, actor, now, event))
      })
      return { access: await tokens.signActAs({ id: user.id, username: user.username }, institute.slug) }
    },
  }
}

export type PlatformService = ReturnType<typeof createPlatformService>
