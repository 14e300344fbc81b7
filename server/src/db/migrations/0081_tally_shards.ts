import { sql, type Kysely, type Migration, type RawBuilder } from 'kysely'
import type { Dialect } from '../database'

// docs/decisions/138: a score's count of first attempts is kept in several rows (shards), so that learners finishing
// together with the same score do not queue on one row's lock through their transactions' ends. Readers sum them.
export const tallyShards = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    if (dialect === 'postgres') {
      // Altered in place: the table keeps its row security, its policy and the app role's grants (decision 098).
      await sql`alter table first_attempt_scores add column shard integer not null default 0`.execute(db)
      await sql`alter table first_attempt_scores drop constraint first_attempt_scores_pk`.execute(db)
      await sql`alter table first_attempt_scores
        add constraint first_attempt_scores_pk primary key (quiz_id, score_hundredths, shard)`.execute(db)
      return
    }
    await rebuiltOnSqlite(
      db,
      true,
      sql`select quiz_id, score_hundredths, learners, institute_id from first_attempt_scores`,
    )
  },
  async down(db: Kysely<unknown>) {
    // Each score's shards summed back into one row.
    if (dialect === 'postgres') {
      await sql`create temporary table summed on commit drop as
        select quiz_id, score_hundredths, sum(learners)::integer as learners, institute_id from first_attempt_scores
        group by quiz_id, score_hundredths, institute_id`.execute(db)
      await sql`delete from first_attempt_scores`.execute(db)
      await sql`alter table first_attempt_scores drop constraint first_attempt_scores_pk`.execute(db)
      await sql`alter table first_attempt_scores drop column shard`.execute(db)
      await sql`alter table first_attempt_scores
        add constraint first_attempt_scores_pk primary key (quiz_id, score_hundredths)`.execute(db)
      await sql`insert into first_attempt_scores (quiz_id, score_hundredths, learners, institute_id)
        select quiz_id, score_hundredths, learners, institute_id from summed`.execute(db)
      return
    }
    await rebuiltOnSqlite(
      db,
      false,
      sql`select quiz_id, score_hundredths, sum(learners), institute_id from first_attempt_scores
        group by quiz_id, score_hundredths, institute_id`,
    )
  },
})

/** SQLite changes no primary key in place: the table made anew, with or without `shard`, and filled from `rows`. */
async function rebuiltOnSqlite(db: Kysely<unknown>, sharded: boolean, rows: RawBuilder<unknown>) {
  await sql`create table first_attempt_scores_rebuilt (
    quiz_id integer not null references quizzes (id),
    score_hundredths integer not null,
    learners integer not null,
    institute_id integer not null default 1,
    ${sharded ? sql`shard integer not null default 0,` : sql``}
    constraint first_attempt_scores_pk primary key (quiz_id, score_hundredths${sharded ? sql`, shard` : sql``}))`.execute(
    db,
  )
  await sql`insert into first_attempt_scores_rebuilt (quiz_id, score_hundredths, learners, institute_id) ${rows}`.execute(
    db,
  )
  await sql`drop table first_attempt_scores`.execute(db)
  await sql`alter table first_attempt_scores_rebuilt rename to first_attempt_scores`.execute(db)
}
