import { sql, type Kysely, type Migration } from 'kysely'
import type { Dialect } from '../database'

// Frozen in time: change the schema with a new migration, never by editing this one.
// Issue 74 (docs/decisions/095): institutes on one deployment. Everything that existed becomes institute 1, `main`;
// every institute-owned table gets `institute_id` (its default 1 is how the rows already there are moved, in place).

/** The institute-owned tables as they are at this migration (db/tenancy.ts holds today's list). */
const OWNED_TABLES = [
  'quizzes',
  'questions',
  'tags',
  'question_tags',
  'paper_sections',
  'paper_items',
  'question_shows',
  'shown_sets',
  'shown_set_questions',
  'set_shows',
  'question_revisions',
  'question_options',
  'attempts',
  'attempt_answers',
  'attempt_question_states',
  'practice_cards',
  'owed_practice_cards',
  'first_attempt_scores',
  'leaderboard_snapshots',
  'live_paper_keys',
  'plans',
  'payments',
  'audit_events',
  'imports',
  'key_versions',
  'flags',
  'regrades',
  'notifications',
  'live_registrations',
  'live_announcements',
  'deliveries',
  'sittings',
  'sitting_roster',
  'sitting_scans',
  'scan_photos',
  'rubrics',
  'rubric_groups',
  'rubric_items',
  'written_answers',
  'written_answer_items',
  'written_answer_pages',
  'written_rescores',
  'regrade_requests',
  'booklet_pages',
]

export const institutesMigration = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    const id = dialect === 'postgres' ? 'bigserial' : 'integer'
    await db.schema
      .createTable('institutes')
      .addColumn('id', id, (c) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
      .addColumn('slug', 'text', (c) => c.notNull().unique())
      .addColumn('name_en', 'text', (c) => c.notNull())
      .addColumn('name_ne', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('colour', 'text', (c) => c.notNull().defaultTo('#1f6feb'))
      .addColumn('logo_hash', 'text')
      .addColumn('sms_sender', 'text')
      .addColumn('open_registration', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute()
    await db.schema
      .createTable('institute_hosts')
      .addColumn('host', 'text', (c) => c.primaryKey())
      .addColumn('institute_id', 'integer', (c) => c.notNull().references('institutes.id'))
      .execute()
    await db.schema.createIndex('institute_hosts_by_institute').on('institute_hosts').column('institute_id').execute()
    await db.schema
      .createTable('memberships')
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('institute_id', 'integer', (c) => c.notNull().references('institutes.id'))
      .addColumn('is_learner', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('is_admin', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('is_marker', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('memberships_pk', ['user_id', 'institute_id'])
      .execute()
    await db.schema
      .createIndex('memberships_by_institute')
      .on('memberships')
      .columns(['institute_id', 'user_id'])
      .execute()
    await db.schema
      .createTable('institute_invitations')
      .addColumn('institute_id', 'integer', (c) => c.notNull().references('institutes.id'))
      .addColumn('phone_number', 'text', (c) => c.notNull())
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('invited_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('institute_invitations_pk', ['institute_id', 'phone_number'])
      .execute()
    await db.schema
      .alterTable('users')
      .addColumn('is_platform_admin', 'integer', (c) => c.notNull().defaultTo(0))
      .execute()

    const now = Date.now()
    await sql`insert into institutes (id, slug, name_en, created_at) values (1, 'main', 'Quiz platform', ${now})`.execute(
      db,
    )
    if (dialect === 'postgres') await sql`select setval('institutes_id_seq', 1)`.execute(db)
    await sql`insert into memberships (user_id, institute_id, is_learner, is_admin, is_marker, created_at)
      select id, 1, 1, is_admin, is_marker, ${now} from users`.execute(db)

    // A constant default fills the rows already there without rewriting them on either database; SQLite cannot add
    // a column that references another table with a non-null default, so the reference is PostgreSQL's alone.
    for (const table of OWNED_TABLES) {
      await db.schema
        .alterTable(table)
        .addColumn('institute_id', 'integer', (c) =>
          dialect === 'postgres' ? c.notNull().defaultTo(1).references('institutes.id') : c.notNull().defaultTo(1),
        )
        .execute()
    }
  },
  async down(db: Kysely<unknown>) {
    for (const table of OWNED_TABLES) await db.schema.alterTable(table).dropColumn('institute_id').execute()
    await db.schema.alterTable('users').dropColumn('is_platform_admin').execute()
    await db.schema.dropTable('institute_invitations').execute()
    await db.schema.dropTable('memberships').execute()
    await db.schema.dropTable('institute_hosts').execute()
    await db.schema.dropTable('institutes').execute()
  },
})
