import { sql, type Kysely, type Migration } from 'kysely'
import type { Dialect } from '../database'

// Frozen in time: change the schema with a new migration, never by editing this one.
// Issue 74 (docs/decisions/100): a natural key unique across the deployment becomes unique within its institute,
// so two institutes may both have a tag "Science" and both show a national mock's set of questions. The key leads the
// index, so a lone institute's lookups, which name no institute (decision 076), still use it.

/** The keys made per institute: the table, its key column, the new index, and the table as it is on SQLite. */
const KEYS = [
  {
    table: 'tags',
    column: 'name_key',
    index: 'tags_institute_name_key',
    postgresConstraint: 'tags_name_key_key',
    sqliteColumns: (unique: string) => `id integer primary key autoincrement, name text not null,
      name_key text not null${unique}, institute_id integer default 1 not null`,
    names: 'id, name, name_key, institute_id',
  },
  {
    table: 'shown_sets',
    column: 'set_key',
    index: 'shown_sets_institute_set_key',
    postgresConstraint: 'shown_sets_set_key_key',
    sqliteColumns: (unique: string) => `id integer primary key autoincrement, set_key text not null${unique},
      created_at bigint not null, institute_id integer default 1 not null`,
    names: 'id, set_key, created_at, institute_id',
  },
] as const

// SQLite cannot drop the UNIQUE written in a CREATE TABLE: each table is rebuilt, foreign keys off while the rows
// that name it point at nothing (Kysely runs SQLite's migrations outside a transaction), checked before commit.
async function rebuildOnSqlite(db: Kysely<unknown>, perInstitute: boolean) {
  await sql`pragma foreign_keys = off`.execute(db)
  await sql`begin`.execute(db)
  try {
    for (const key of KEYS) {
      const sequence = await sql<{
        seq: number
      }>`select seq from sqlite_sequence where name = ${key.table}`.execute(db)
      await sql`create table ${sql.table(`${key.table}_new`)} (${sql.raw(
        key.sqliteColumns(perInstitute ? '' : ' unique'),
      )})`.execute(db)
      await sql`insert into ${sql.table(`${key.table}_new`)} (${sql.raw(key.names)})
        select ${sql.raw(key.names)} from ${sql.table(key.table)}`.execute(db)
      await sql`drop table ${sql.table(key.table)}`.execute(db)
      await sql`alter table ${sql.table(`${key.table}_new`)} rename to ${sql.table(key.table)}`.execute(db)
      // Ids are never given twice, even those of rows deleted before the rebuild.
      const seq = sequence.rows[0]?.seq
      if (seq !== undefined) {
        await sql`update sqlite_sequence set seq = max(seq, ${seq}) where name = ${key.table}`.execute(db)
      }
      if (perInstitute) {
        await sql`create unique index ${sql.id(key.index)} on ${sql.table(key.table)} (${sql.ref(key.column)}, institute_id)`.execute(
          db,
        )
      }
    }
    const broken = await sql`pragma foreign_key_check`.execute(db)
    if (broken.rows.length > 0) throw new Error('Rebuilding tags and shown sets broke a foreign key.')
    await sql`commit`.execute(db)
  } catch (error) {
    await sql`rollback`.execute(db)
    throw error
  } finally {
    await sql`pragma foreign_keys = on`.execute(db)
  }
}

// The content-addressed pictures stay one copy per bytes; which institutes use each is its own, institute-owned row,
// so a picture's URL answers only on the hosts of institutes that stored or use it (pictures/picture-uses.ts).
async function createPictureUses(db: Kysely<unknown>, dialect: Dialect) {
  await db.schema
    .createTable('picture_uses')
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('institute_id', 'integer', (c) =>
      dialect === 'postgres' ? c.notNull().defaultTo(1).references('institutes.id') : c.notNull().defaultTo(1),
    )
    .addPrimaryKeyConstraint('picture_uses_pk', ['hash', 'institute_id'])
    .execute()
  await sql`insert into picture_uses (hash, institute_id)
    select image_picture, institute_id from question_revisions where image_picture is not null
    union select image_picture, institute_id from question_options where image_picture is not null
    union select logo_hash, id from institutes where logo_hash is not null
    union select p.hash, i.institute_id from pictures p join imports i on i.rows like '%' || p.hash || '%'`.execute(db)
}

export const perInstituteKeys = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    await createPictureUses(db, dialect)
    if (dialect === 'sqlite') return rebuildOnSqlite(db, true)
    for (const key of KEYS) {
      await sql`create unique index ${sql.id(key.index)} on ${sql.table(key.table)} (${sql.ref(key.column)}, institute_id)`.execute(
        db,
      )
      await sql`alter table ${sql.table(key.table)} drop constraint ${sql.id(key.postgresConstraint)}`.execute(db)
    }
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('picture_uses').execute()
    if (dialect === 'sqlite') return rebuildOnSqlite(db, false)
    for (const key of KEYS) {
      await sql`alter table ${sql.table(key.table)} add constraint ${sql.id(key.postgresConstraint)} unique (${sql.ref(
        key.column,
      )})`.execute(db)
      await sql`drop index ${sql.id(key.index)}`.execute(db)
    }
  },
})
