import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { sql } from 'kysely'
import pg from 'pg'
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest'
import { buildApp, type App, type BuildOptions } from '../src/app'
import { createTokenSigner, type TokenSigner } from '../src/http/tokens'
import { loadConfig, type Config } from '../src/config'
import { fromPostgresPool, fromSqlite, type Database, type Dialect } from '../src/db/database'
import { grantToAppRole } from '../src/db/app-role'
import { migrateToLatest } from '../src/db/migrate'
import { inRequestScope } from '../src/db/request-scope'
import { FIRST_INSTITUTE_ID } from '../src/db/tenancy'
import { FakeClock } from '../src/lib/clock'
import { MemorySms } from './memory-sms'
import { SQLite } from '../src/db/sqlite-driver'
import type { FileStore } from '../src/files'
import { createLocalStore } from '../src/files/local-store'
import { createS3Store } from '../src/files/s3-store'
import { startLocalS3, type LocalS3 } from './local-s3'

export interface TestApp {
  app: App
  /** The test's own handle: on PostgreSQL a superuser's, past row security, for fixtures and what a test reads back. */
  database: Database
  db: Database['db']
  /** The app's: on PostgreSQL the app role's, under row security as a deployment's server (docs/decisions/098). */
  appDatabase: Database
  clock: FakeClock
  sms: MemorySms
  config: Config
  tokens: TokenSigner
  /** The app's file store: a directory of this test file's own, or with TEST_FILE_STORE=s3 a local S3 server's bucket. */
  files: FileStore
}

export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig(
    {
      NODE_ENV: 'test',
      JWT_SECRET: 'test-secret-test-secret-test-secret-0123',
      LOG_LEVEL: 'silent',
      DATA_DIR: '/tmp/quiz-test-data',
      ...env,
    },
    { persistSecret: false },
  )
}

/**
 * Registers hooks that give each test a fresh, migrated database and a new app on it.
 * SQLite: migrated once into a template, then cloned in memory per test (`serialize()`), which is cheap.
 * PostgreSQL: one database per test file (made and dropped here), truncated before each test.
 * Use it inside `describe.each(dialects)`; read the returned object's fields inside tests only. `services` and
 * `requestScope` are buildApp's options of those names.
 */
export function useTestApp(
  dialect: Dialect,
  env: Record<string, string> = {},
  { services, requestScope }: Pick<BuildOptions, 'services' | 'requestScope'> = {},
): TestApp {
  const t = {} as TestApp
  let template: Buffer | undefined
  let pgName: string | undefined
  let pgDatabase: Database | undefined
  let pgAppDatabase: Database | undefined
  let emptyPostgres: string | undefined
  let filesDir: string | undefined
  let localS3: LocalS3 | undefined

  beforeAll(async () => {
    // A store of the file's own: tests that run side by side never read or delete each other's files.
    filesDir = await mkdtemp(path.join(tmpdir(), 'quiz-test-files-'))
    if (process.env.TEST_FILE_STORE === 's3') localS3 = await startLocalS3()
    if (dialect === 'sqlite') {
      const connection = new SQLite(':memory:')
      const database = fromSqlite(connection)
      await migrateToLatest(database)
      template = connection.serialize()
      await database.destroy()
    } else {
      const created = await createTestDatabase('quiz_test')
      pgName = created.name
      pgDatabase = fromPostgresPool(new pg.Pool({ connectionString: created.url, max: 10 }))
      await migrateToLatest(pgDatabase)
      emptyPostgres = await emptyingStatement(pgDatabase)
      pgAppDatabase = await appRoleDatabase(pgDatabase, created.url)
    }
  })

  beforeEach(async () => {
    t.config = testConfig(env)
    t.clock = new FakeClock()
    t.sms = new MemorySms()
    if (dialect === 'sqlite') {
      t.database = fromSqlite(new SQLite(template!))
    } else {
      await sql.raw(emptyPostgres!).execute(pgDatabase!.db)
      t.database = { ...pgDatabase!, destroy: async () => {} }
    }
    t.db = t.database.db
    t.appDatabase = pgAppDatabase ? { ...pgAppDatabase, destroy: async () => {} } : t.database
    t.files = localS3 ? createS3Store(localS3.settings) : createLocalStore(filesDir!)
    const tokens = (t.tokens = createTokenSigner({
      secret: t.config.jwtSecret,
      accessTtl: t.config.accessTokenTtl,
      refreshTtl: t.config.refreshTokenTtl,
      sessionMaxTtl: t.config.sessionMaxSeconds,
      clock: t.clock,
    }))
    t.app = await buildApp(
      { config: t.config, database: t.appDatabase, clock: t.clock, sms: t.sms, tokens, files: t.files },
      { logger: false, services, requestScope },
    )
    await t.app.ready()
  })

  afterEach(async () => {
    await t.app?.close()
    await t.database?.destroy()
  })

  afterAll(async () => {
    await localS3?.stop()
    if (filesDir) await rm(filesDir, { recursive: true, force: true })
    await pgAppDatabase?.destroy()
    if (pgDatabase) {
      await pgDatabase.destroy()
      await dropTestDatabase(pgName!)
    }
  })

  return t
}

/**
 * One round trip that empties every table of the schema and restarts its sequences, as `truncate ... restart identity
 * cascade` would, in about a tenth of the time: truncating some 55 tables made new files for each, about 150 ms a
 * test. Foreign keys and triggers are off for the deletes (`session_replication_role = replica`, this transaction
 * only), so the order of the tables does not matter and no trigger writes anything back.
 */
async function emptyingStatement(database: Database) {
  const { rows } = await sql<{
    tablename: string
  }>`select tablename from pg_tables where schemaname = 'public' and tablename not like 'kysely_%'`.execute(database.db)
  const tables = rows.map((row) => `"${row.tablename}"`)
  const { rows: role } = await sql<{ super: boolean }>`select rolsuper as super from pg_roles
    where rolname = current_user`.execute(database.db)
  // Only a superuser may turn the triggers off; any other role truncates, slower and the same.
  // The first institute is the migration's, and every row's without one named (docs/decisions/095).
  const firstInstitute = [
    // Named as migration 0055 leaves it.
    `insert into institutes (id, slug, name_en, name_ne, colour, created_at) values (1, 'main', 'Quiz Practice', 'क्विज अभ्यास', '#1d4ed8', 0)`,
    `select setval('institutes_id_seq', 1)`,
    // The platform's bank's reserved row (migration 0046, docs/decisions/101).
    `insert into institutes (id, slug, name_en, open_registration, created_at) values (0, '~platform', 'Platform', 0, 0)`,
  ]
  if (!role[0]?.super) return [`truncate ${tables.join(', ')} restart identity cascade`, ...firstInstitute].join(';\n')
  return [
    'begin',
    'set local session_replication_role = replica',
    ...tables.map((table) => `delete from ${table}`),
    `select setval(c.oid, s.seqstart, false) from pg_sequence s join pg_class c on c.oid = s.seqrelid
       join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relname not like 'kysely_%'`,
    ...firstInstitute,
    'commit',
  ].join(';\n')
}

/**
 * Runs `work` (the app's own services, called by a test outside any request) as a request of a lone institute runs:
 * on PostgreSQL row security shows a session set to no institute nothing (docs/decisions/098).
 */
export const asFirstInstitute = <T>(work: () => T): T =>
  inRequestScope({ requestId: 'test', sessionInstitute: FIRST_INSTITUTE_ID }, work)

/** The role the tests' apps connect as on PostgreSQL: no superuser, owner of nothing, held by row security. */
export const TEST_APP_ROLE = 'quiz_test_app'

/**
 * The app's handle on a migrated test database, as a deployment's server connects (docs/operations.md "Database
 * roles"): the role is made once per server (test files race to make it) and granted what migrateForApp grants.
 */
export async function appRoleDatabase(owner: Database, url: string, { grant = true } = {}): Promise<Database> {
  await sql
    .raw(
      `do $$ begin create role ${TEST_APP_ROLE} login nosuperuser nobypassrls;
       exception when duplicate_object or unique_violation then null; end $$`,
    )
    .execute(owner.db)
  if (grant) await grantToAppRole(owner, TEST_APP_ROLE)
  const appUrl = new URL(url)
  appUrl.username = TEST_APP_ROLE
  appUrl.password = ''
  return fromPostgresPool(new pg.Pool({ connectionString: appUrl.toString(), max: 10 }))
}

/** A new, empty database on TEST_DATABASE_URL's PostgreSQL server, named `prefix_pid_random`. */
export async function createTestDatabase(prefix: string) {
  const name = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`
  await adminQuery(`create database ${name}`)
  const url = new URL(process.env.TEST_DATABASE_URL!)
  url.pathname = `/${name}`
  return { name, url: url.toString() }
}

/**
 * pg's pool.end() resolves before its sockets have closed, and a stopped server's pools close as its processes
 * exit; `drop ... with (force)` would kill those closing connections and surface as uncaught errors. Wait for
 * them to go instead.
 */
export async function dropTestDatabase(name: string) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await adminQuery(`drop database if exists ${name}`)
    } catch (error) {
      if ((error as { code?: string }).code !== '55006' || attempt >= 50) throw error
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
}

async function adminQuery(text: string) {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL })
  await client.connect()
  try {
    await client.query(text)
  } finally {
    await client.end()
  }
}

/** Another app on `database` (a second process, or a server as main.ts builds it); closing it closes the database. */
export async function appOn(database: Database, deps: Omit<Parameters<typeof buildApp>[0], 'database'>) {
  const app = await buildApp({ ...deps, database }, { logger: false })
  await app.ready()
  return {
    app,
    database,
    close: async () => {
      await app.close()
      await database.destroy()
    },
  }
}

/** PostgreSQL: a pool of its own on the test's database, as a second server process has. */
export async function secondPool(t: Pick<TestApp, 'db'>) {
  return fromPostgresPool(new pg.Pool({ connectionString: await testDatabaseUrl(t), max: 3 }))
}

/** PostgreSQL: the address of the test's database, as the owner or as `role`. */
export async function testDatabaseUrl(t: Pick<TestApp, 'db'>, role?: string) {
  const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(t.db)
  const url = new URL(process.env.TEST_DATABASE_URL!)
  url.pathname = `/${rows[0]!.name}`
  if (role) {
    url.username = role
    url.password = ''
  }
  return url.toString()
}
