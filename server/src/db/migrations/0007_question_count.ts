import { sql, type Kysely, type Migration } from 'kysely'
import type { Dialect } from '../database'

// Frozen in time: change the schema with a new migration, never by editing this one.
// docs/decisions/021: every quiz keeps the number of its live questions (not deleted, with a current revision), so
// the learner's quiz list, the hottest read of all, does not count them on every request; and a version of its set of
// current questions, raised by every change to which questions are live, their revisions or their order, so each
// process can keep the list an attempt's paper is drawn from and know when it is stale (an exam's 1,000 starts read
// one version instead of 1,000 lists). Triggers keep both: every write to questions (an admin's add, delete or
// edit, create-from-JSON's bulk insert, a restore by hand) changes them in the same statement, so no path can forget
// them. Questions are never deleted (their revisions refer to them; a deleted question is marked).
const LIVE_NEW = 'new.deleted_at is null and new.revision_id is not null'
const LIVE_OLD = 'old.deleted_at is null and old.revision_id is not null'

export const questionCount = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    for (const column of ['question_count', 'question_set_version']) {
      await db.schema
        .alterTable('quizzes')
        .addColumn(column, 'integer', (c) => c.notNull().defaultTo(0))
        .execute()
    }
    await sql`
      update quizzes set question_count = (
        select count(*) from questions
        where questions.quiz_id = quizzes.id and questions.deleted_at is null and questions.revision_id is not null
      )`.execute(db)

    const asNumber = (condition: string) => `(case when ${condition} then 1 else 0 end)`
    const less = `update quizzes set question_count = question_count - ${asNumber(LIVE_OLD)},
      question_set_version = question_set_version + 1 where id = old.quiz_id`
    const more = `update quizzes set question_count = question_count + ${asNumber(LIVE_NEW)},
      question_set_version = question_set_version + 1 where id = new.quiz_id`
    // An update that changes none of these (a no-op write) changes neither figure.
    const changed = (differ: string) =>
      ['quiz_id', 'position', 'revision_id', 'deleted_at'].map((c) => `old.${c} ${differ} new.${c}`).join(' or ')
    if (dialect === 'postgres') {
      await sql
        .raw(
          `create function questions_keep_quiz_figures() returns trigger language plpgsql as $$
           begin
             if tg_op = 'UPDATE' then ${less}; end if;
             ${more};
             return null;
           end
           $$`,
        )
        .execute(db)
      await sql
        .raw(
          `create trigger questions_figures_insert after insert on questions
           for each row execute function questions_keep_quiz_figures()`,
        )
        .execute(db)
      await sql
        .raw(
          `create trigger questions_figures_update after update on questions
           for each row when (${changed('is distinct from')}) execute function questions_keep_quiz_figures()`,
        )
        .execute(db)
      return
    }
    await sql.raw(`create trigger questions_figures_insert after insert on questions begin ${more}; end`).execute(db)
    await sql
      .raw(
        `create trigger questions_figures_update after update on questions when ${changed('is not')}
         begin ${less}; ${more}; end`,
      )
      .execute(db)
  },
})
