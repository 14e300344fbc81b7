import { sql, type Kysely, type Migration } from 'kysely'
import type { Dialect } from '../database'

// Frozen in time: change the schema with a new migration, never by editing this one.
// Issue 74 (docs/decisions/098): PostgreSQL's row security holds each institute-owned table to the institute the
// session is set to (`app.institute_id`); unset or empty, no row at all. SQLite has none: the server's filter alone.
// Last of the wave's migrations: those before it move rows of every institute, which a role held by it could not see.

/** The institute-owned tables as they are at this migration (db/tenancy.ts holds today's list). */
const OWNED_TABLES = [
  'institute_invitations',
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
  'picture_uses',
]

/**
 * The one policy of an institute-owned table: `nullif` makes an empty setting NULL, and a comparison with NULL holds
 * for no row, where casting '' would fail the statement. Forced: the table's owner is held to it too. A row inserted
 * without `institute_id` (SQL written as text, which the server's filter does not rewrite) takes the session's
 * institute; in a session set to none, the first institute's as before, which the policy refuses to the app's role.
 */
export async function holdToInstitute(db: Kysely<unknown>, table: string) {
  const name = sql.table(table)
  const institute = sql`nullif(current_setting('app.institute_id', true), '')::integer`
  await sql`alter table ${name} alter column institute_id set default coalesce(${institute}, 1)`.execute(db)
  // A subquery: evaluated once per statement (an InitPlan), not once per row the policy looks at.
  const once = sql`(select ${institute})`
  await sql`alter table ${name} enable row level security`.execute(db)
  await sql`alter table ${name} force row level security`.execute(db)
  await sql`create policy institute_rows on ${name}
    using (institute_id = ${once}) with check (institute_id = ${once})`.execute(db)
}

export const rowSecurity = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    if (dialect !== 'postgres') return
    for (const table of OWNED_TABLES) await holdToInstitute(db, table)
  },
  async down(db: Kysely<unknown>) {
    if (dialect !== 'postgres') return
    for (const table of OWNED_TABLES) {
      const name = sql.table(table)
      await sql`drop policy institute_rows on ${name}`.execute(db)
      await sql`alter table ${name} no force row level security`.execute(db)
      await sql`alter table ${name} disable row level security`.execute(db)
      await sql`alter table ${name} alter column institute_id set default 1`.execute(db)
    }
  },
})
