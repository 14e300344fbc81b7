import { sql, type Kysely, type Migration } from 'kysely'
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
    // SQLite changes no primary key in place.
    await sql`create table first_attempt_scores_new (
      quiz_id integer not null references quizzes (id),
      score_hundredths integer not null,
      learners integer not null,
      institute_id integer not null default 1,
      shard integer not null default 0,
      constraint first_attempt_scores_pk primary key (quiz_id, score_hundredths, shard))`.execute(db)
    await sql`insert into first_attempt_scores_new (quiz_id, score_hundredths, learners, institute_id)
      select quiz_id, score_hundredths, learners, institute_id from first_attempt_scores`.execute(db)
    await sql`drop table first_attempt_scores`.execute(db)
    await sql`alter table first_attempt_scores_new rename to first_attempt_scores`.execute(db)
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
    await sql`create table first_attempt_scores_old (
      quiz_id integer not null references quizzes (id),
      score_hundredths integer not null,
      learners integer not null,
      institute_id integer not null default 1,
      constraint first_attempt_scores_pk primary key (quiz_id, score_hundredths))`.execute(db)
    await sql`insert into first_attempt_scores_old (quiz_id, score_hundredths, learners, institute_id)
      select quiz_id, score_hundredths, sum(learners), institute_id from first_attempt_scores
      group by quiz_id, score_hundredths, institute_id`.execute(db)
    await sql`drop table first_attempt_scores`.execute(db)
    await sql`alter table first_attempt_scores_old rename to first_attempt_scores`.execute(db)
  },
})
