import { sql } from 'kysely'
import type { Config } from '../config'
import { createDatabase, type Database } from './database'
import { migrateToLatest } from './migrate'

/**
 * Migrates the database for the app's `database`: on PostgreSQL as the owner (DATABASE_OWNER_URL) when set, then grants
 * the app's role what it needs and no more (docs/decisions/098). Answers what the server should warn of at start.
 */
export async function migrateForApp(config: Config['database'], app: Database): Promise<string[]> {
  if (config.kind !== 'postgres') {
    await migrateToLatest(app)
    return []
  }
  if (!config.ownerUrl) {
    await migrateToLatest(app)
    return [
      'DATABASE_OWNER_URL is not set: the server connects as the tables\u2019 owner, so the database does not enforce ' +
        'the isolation of institutes (the server still does); see docs/operations.md "Database roles"',
    ]
  }
  const owner = createDatabase({ ...config, url: config.ownerUrl, poolSize: 1 })
  const warnings: string[] = []
  try {
    // Forced row security holds a table's owner too: a migration that moves rows would see none (decision 098).
    if (!(await seesEveryRow(owner)))
      warnings.push(
        'DATABASE_OWNER_URL connects as a role held by row security: a migration that moves institutes\u2019 rows ' +
          'would see none of them; give it BYPASSRLS (docs/operations.md "Database roles")',
      )
    await migrateToLatest(owner)
    await grantToAppRole(owner, await currentRole(app))
  } finally {
    await owner.destroy()
  }
  if (await bypassesRowSecurity(app))
    warnings.push(
      'DATABASE_URL connects as a role that bypasses row security (a superuser, BYPASSRLS, or a table\u2019s owner): ' +
        'the database does not enforce the isolation of institutes; see docs/operations.md "Database roles"',
    )
  return warnings
}

/** The role a database handle connects as (DATABASE_URL may name none: libpq's defaults then choose it). */
export async function currentRole(database: Database): Promise<string> {
  const { rows } = await sql<{ role: string }>`select current_user as role`.execute(database.db)
  return rows[0]!.role
}

/**
 * Rows of every table and the sequences' next values: no DDL, TRUNCATE, REFERENCES or TRIGGER, nor the migrations'
 * own tables. Run after every migration, so a table a migration adds is granted before the server uses it.
 */
export async function grantToAppRole(owner: Database, role: string): Promise<void> {
  const name = sql.id(role)
  await sql`grant usage on schema public to ${name}`.execute(owner.db)
  await sql`grant select, insert, update, delete on all tables in schema public to ${name}`.execute(owner.db)
  await sql`revoke all on kysely_migration, kysely_migration_lock from ${name}`.execute(owner.db)
  await sql`grant usage, select on all sequences in schema public to ${name}`.execute(owner.db)
}

/** Whether the handle's role is above row security altogether: a superuser or BYPASSRLS. */
async function seesEveryRow(database: Database): Promise<boolean> {
  const { rows } = await sql<{ above: boolean }>`select rolsuper or rolbypassrls as above from pg_roles
    where rolname = current_user`.execute(database.db)
  return rows[0]?.above === true
}

/** Whether the handle's role sees past row security: a superuser, BYPASSRLS, or the owner of a table (who may alter it). */
export async function bypassesRowSecurity(database: Database): Promise<boolean> {
  const { rows } = await sql<{ bypasses: boolean }>`select
      (select rolsuper or rolbypassrls from pg_roles where rolname = current_user)
      or exists (select 1 from pg_tables where schemaname = 'public' and tableowner = current_user) as bypasses`.execute(
    database.db,
  )
  return rows[0]!.bypasses
}
