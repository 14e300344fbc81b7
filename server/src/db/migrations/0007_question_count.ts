import { sql, type Kysely, type Migration } from 'kysely'
import type { Dialect } from '../database'

// Frozen in time: change the schema with a new migration, never by editing this one.
// docs/decisions/021: every quiz keeps the number of its live questions (not deleted, with a current revision), so
// the learner's quiz list, the hottest read of all, does not count them on every request. Triggers keep the number:
// every write that makes a question live or not live (an admin's add, delete or edit, create-from-JSON's bulk
// insert, a restore by hand) changes it in the same statement, so no path can forget it. Questions are never deleted
// (their revisions refer to them; a deleted question is marked), so inserts and updates are all there is to watch.
const LIVE_NEW = 'new.deleted_at is null and new.revision_id is not null'
const LIVE_OLD = 'old.deleted_at is null and old.revision_id is not null'
// An update that leaves the question as live (or as dead) as it was, at the same quiz, changes no count: an edit
// (a new revision) is the common one.
const COUNT_CHANGES = `(${LIVE_OLD}) <> (${LIVE_NEW}) or old.quiz_id <> new.quiz_id`

export const questionCount = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('quizzes')
      .addColumn('question_count', 'integer', (c) => c.notNull().defaultTo(0))
      .execute()
    await sql`
      update quizzes set question_count = (
        select count(*) from questions
        where questions.quiz_id = quizzes.id and questions.deleted_at is null and questions.revision_id is not null
      )`.execute(db)

    const less = 'update quizzes set question_count = question_count - 1 where id = old.quiz_id'
    const more = 'update quizzes set question_count = question_count + 1 where id = new.quiz_id'
    if (dialect === 'postgres') {
      await sql
        .raw(
          `create function questions_keep_quiz_count() returns trigger language plpgsql as $$
           begin
             if tg_op = 'UPDATE' then
               if ${LIVE_OLD} then ${less}; end if;
             end if;
             if ${LIVE_NEW} then ${more}; end if;
             return null;
           end
           $$`,
        )
        .execute(db)
      const triggers = [
        ['insert', 'after insert', LIVE_NEW],
        ['update', 'after update of quiz_id, deleted_at, revision_id', COUNT_CHANGES],
      ]
      for (const [name, event, when] of triggers) {
        await sql
          .raw(
            `create trigger questions_count_${name} ${event} on questions
             for each row when (${when}) execute function questions_keep_quiz_count()`,
          )
          .execute(db)
      }
      return
    }
    const triggers = [
      ['insert', 'after insert', LIVE_NEW, more],
      [
        'update',
        'after update of quiz_id, deleted_at, revision_id',
        COUNT_CHANGES,
        `${less} and ${LIVE_OLD}; ${more} and ${LIVE_NEW}`,
      ],
    ]
    for (const [name, event, when, body] of triggers) {
      await sql
        .raw(`create trigger questions_count_${name} ${event} on questions when ${when} begin ${body}; end`)
        .execute(db)
    }
  },
})
