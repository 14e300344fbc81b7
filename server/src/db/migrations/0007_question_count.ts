import { sql, type Kysely, type Migration } from 'kysely'
import type { Dialect } from '../database'

// docs/decisions/021: each quiz's live question count and question-set version, kept by triggers on questions.
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
