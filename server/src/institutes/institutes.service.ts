import { InstituteSlugSchema, type InstituteBranding } from '@quiz/contracts'
import type { Kysely } from 'kysely'
import type { Config } from '../config'
import type { Database } from '../db/database'
import { currentInstitute } from '../db/request-scope'
import { FIRST_INSTITUTE_ID } from '../db/tenancy'
import type { DB } from '../db/schema'
import { BadRequest, Conflict, NotFound } from '../http/errors'
import type { Clock } from '../lib/clock'
import { normaliseHost } from './host'
import {
  findInstituteById,
  findInstituteBySlug,
  findLogo,
  findTakenHosts,
  insertInstitute,
  listInstitutesWithHosts,
  replaceHosts,
  updateInstitute,
  type InstituteChanges,
  type InstituteRow,
} from './institutes.repository'

export interface Institute {
  id: number
  slug: string
  name: { en: string; ne: string }
  colour: string
  logoHash: string | null
  smsSender: string | null
  openRegistration: boolean
  status: 'active' | 'suspended'
}

/**
 * The institute a host is for, and whether the deployment has others (then every query is held to it); `platform`:
 * the host is the platform's own address too (docs/decisions/097), and with several institutes it is no institute's
 * (`institute` null).
 */
export type HostMatch =
  { institute: Institute; alone: boolean; platform: boolean } | { institute: null; alone: false; platform: true }

const toInstitute = (row: InstituteRow): Institute => ({
  id: row.id,
  slug: row.slug,
  name: { en: row.name_en, ne: row.name_ne },
  colour: row.colour,
  logoHash: row.logo_hash,
  smsSender: row.sms_sender,
  openRegistration: row.open_registration === 1,
  status: row.status,
})

interface HostTable {
  loadedAt: number
  institutes: Institute[]
  byHost: Map<string, Institute>
  bySlug: Map<string, Institute>
}

export const STALE = Symbol('stale')

/** How long a process trusts its copy of the host table (a suspension reaches every process within it). */
const FRESH_MS = 1_000
/** An unknown host re-reads the table at most this often: a new institute answers within it, with no restart. */
const MISS_REREAD_MS = 250

export function createInstitutesService({
  database,
  config,
  clock,
}: {
  database: Database
  config: Config
  clock: Clock
}) {
  let table: HostTable | undefined
  let loading: Promise<HostTable> | undefined

  // Bumped by forget(): a read begun before a change must not put the old table back after it.
  let generation = 0

  /** After a change to an institute: this process reads the table again at its next request. */
  function forget() {
    table = undefined
    loading = undefined
    generation++
  }

  function load(): Promise<HostTable> {
    const readFor = generation
    loading ??= listInstitutesWithHosts(database.db)
      .then(({ institutes: rows, hosts }) => {
        const institutes = rows.map(toInstitute)
        const byId = new Map(institutes.map((institute) => [institute.id, institute]))
        const byHost = new Map<string, Institute>()
        for (const { host, institute_id } of hosts) {
          const institute = byId.get(institute_id)
          if (institute) byHost.set(host, institute)
        }
        const loaded: HostTable = {
          loadedAt: performance.now(),
          institutes,
          byHost,
          bySlug: new Map(institutes.map((institute) => [institute.slug, institute])),
        }
        if (readFor === generation) table = loaded
        return loaded
      })
      .finally(() => (loading = undefined))
    return loading
  }

  const ageOf = (current: HostTable) => performance.now() - current.loadedAt

  function lookUp(current: HostTable, host: string | undefined): HostMatch | undefined {
    // While there is one institute every host is it, and the platform's address as well (API.md "Platform admins").
    if (current.institutes.length === 1) return { institute: current.institutes[0]!, alone: true, platform: true }
    if (host === undefined) return undefined
    if (host === config.institutes.platformHost) return { institute: null, alone: false, platform: true }
    const named = current.byHost.get(host)
    if (named) return { institute: named, alone: false, platform: false }
    const { baseDomain } = config.institutes
    if (baseDomain && host.endsWith(`.${baseDomain}`)) {
      const slug = host.slice(0, -baseDomain.length - 1)
      const bySlug = current.bySlug.get(slug)
      if (bySlug) return { institute: bySlug, alone: false, platform: false }
    }
    return undefined
  }

  /**
   * The institute a request's Host is for (API.md "Institutes"), or undefined: no institute here; `STALE` when the
   * table must be read first (`resolve`). Answered from memory, so the hot requests pay no promise for it.
   */
  function resolveAtOnce(host: string | undefined): HostMatch | undefined | typeof STALE {
    if (!table || ageOf(table) >= FRESH_MS) return STALE
    const found = lookUp(table, host)
    // A lone institute answers every host; one not its own may be a new institute's, so it is looked for too.
    const known = found && (!found.alone || (host !== undefined && table.byHost.has(host)))
    return known || ageOf(table) < MISS_REREAD_MS ? found : STALE
  }

  async function resolve(rawHost: string | undefined): Promise<HostMatch | undefined> {
    const host = normaliseHost(rawHost)
    const atOnce = resolveAtOnce(host)
    return atOnce === STALE ? lookUp(await load(), host) : atOnce
  }

  async function branding(id: number): Promise<InstituteBranding> {
    let institute = table?.institutes.find((each) => each.id === id)
    institute ??= (await load()).institutes.find((each) => each.id === id)
    if (!institute) throw new Error(`no institute ${id}`)
    const logo = institute.logoHash ? await findLogo(database.db, institute.logoHash) : undefined
    return {
      slug: institute.slug,
      name: institute.name,
      logo: logo ? { url: `/api/pictures/${logo.hash}.webp`, width: logo.width, height: logo.height } : null,
      colour: institute.colour,
      open_registration: institute.openRegistration,
    }
  }

  function checkedName(input: { en: string; ne?: string }) {
    const name = input.en.trim()
    if (name.length === 0 || name.length > 200)
      throw new BadRequest('An institute needs a name of 1 to 200 characters.')
    return name
  }

  /** The hosts as kept; the platform's own address is no institute's (docs/decisions/097). */
  function checkedHosts(input: readonly string[]): string[] {
    const hosts = [...new Set(input.map((host) => normaliseHost(host)))]
    if (hosts.some((host) => host === undefined || !/^[a-z0-9.-]+$|^[0-9a-f:.]+$/.test(host)))
      throw new BadRequest('A host is a domain name such as pathshala.example.np.')
    const platformHost = config.institutes.platformHost
    if (platformHost !== undefined && hosts.includes(platformHost))
      throw new Conflict(`The host ${platformHost} is the platform's own address.`, 'host_taken')
    return hosts as string[]
  }

  /**
   * A host named for another institute: kept by it, or its own address under BASE_DOMAIN (`{slug}.{base}`), which a
   * kept host would otherwise take from it (a kept host is looked up first).
   */
  async function takenHost(trx: Kysely<DB>, hosts: readonly string[], self?: { id?: number; slug: string }) {
    const kept = (await findTakenHosts(trx, hosts)).find((row) => row.institute_id !== self?.id)
    if (kept) return kept.host
    const { baseDomain } = config.institutes
    if (!baseDomain) return undefined
    for (const host of hosts) {
      if (!host.endsWith(`.${baseDomain}`)) continue
      const slug = host.slice(0, -baseDomain.length - 1)
      if (slug !== self?.slug && (await findInstituteBySlug(trx, slug))) return host
    }
    // A new institute's own address, kept by another.
    if (self?.id === undefined && self?.slug) {
      const own = await findTakenHosts(trx, [`${self.slug}.${baseDomain}`])
      if (own.length > 0) return own[0]!.host
    }
    return undefined
  }

  /** A new institute (the CLI's create-institute, the platform's screens): answers on its hosts at once. */
  async function create(
    input: { slug: string; name: { en: string; ne?: string }; hosts: readonly string[] },
    within?: (trx: Kysely<DB>, id: number) => Promise<void>,
  ) {
    const slug = InstituteSlugSchema.safeParse(input.slug)
    if (!slug.success) throw new BadRequest('A slug is 3 to 30 of a-z, 0-9 and -.')
    const name = checkedName(input.name)
    const hosts = checkedHosts(input.hosts)
    const id = await database.transaction(async (trx) => {
      if (await findInstituteBySlug(trx, slug.data)) throw new Conflict(`The slug ${slug.data} is taken.`)
      const taken = await takenHost(trx, hosts, { slug: slug.data })
      if (taken) throw new Conflict(`The host ${taken} is taken.`, 'host_taken')
      const made = await insertInstitute(
        trx,
        { slug: slug.data, name_en: name, name_ne: (input.name.ne ?? '').trim(), created_at: clock.now() },
        hosts,
      )
      await within?.(trx, made)
      return made
    })
    forget()
    return id
  }

  /** An institute as the host table holds it, fresh within FRESH_MS (the name and sender of its text messages). */
  async function find(id: number): Promise<Institute | undefined> {
    const current = table && ageOf(table) < FRESH_MS ? table : await load()
    return current.institutes.find((each) => each.id === id)
  }

  /**
   * How the running request's text messages are signed (decision 099): its institute's sender id, and its name in
   * the learner's language where the deployment has several; a lone institute's messages read as they always did.
   */
  async function smsSignature(language: 'en' | 'ne'): Promise<{ name?: string; sender?: string }> {
    const scoped = currentInstitute()
    const institute = await find(scoped ?? FIRST_INSTITUTE_ID)
    if (!institute) return {}
    const name = (language === 'ne' && institute.name.ne) || institute.name.en
    return { ...(scoped !== undefined && { name }), ...(institute.smsSender && { sender: institute.smsSender }) }
  }

  /**
   * Changes an institute (the platform's screens); `within` runs in the same transaction (its audit). This process
   * reads the host table again at once; every other within FRESH_MS, so a suspension holds everywhere within 1 s.
   */
  async function update(
    id: number,
    input: { name?: { en: string; ne?: string }; hosts?: readonly string[] } & Omit<
      InstituteChanges,
      'name_en' | 'name_ne'
    >,
    within?: (trx: Kysely<DB>) => Promise<void>,
  ) {
    const { name: inputName, hosts: inputHosts, ...changes } = input
    const name = inputName && { name_en: checkedName(inputName), name_ne: (inputName.ne ?? '').trim() }
    const hosts = inputHosts && checkedHosts(inputHosts)
    await database.transaction(async (trx) => {
      const current = await findInstituteById(trx, id)
      if (!current) throw new NotFound('No such institute.')
      if (hosts) {
        const taken = await takenHost(trx, hosts, { id, slug: current.slug })
        if (taken) throw new Conflict(`The host ${taken} is taken.`, 'host_taken')
        await replaceHosts(trx, id, hosts)
      }
      await updateInstitute(trx, id, { ...changes, ...name })
      await within?.(trx)
    })
    forget()
  }

  return {
    resolve,
    resolveAtOnce: (rawHost: string | undefined) => resolveAtOnce(normaliseHost(rawHost)),
    branding,
    create,
    find,
    smsSignature,
    forget,
    update,
  }
}

export type InstitutesService = ReturnType<typeof createInstitutesService>
