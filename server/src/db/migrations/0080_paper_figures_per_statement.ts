import { sql, type Kysely, type Migration } from 'kysely'
import type { Dialect } from '../database'

// Frozen in time: change the schema with a new migration, never by editing this one.
// PostgreSQL only (docs/decisions/137). The quiz's question count was recounted by a row trigger on paper_items,
// once for every item written: a paper of 500 questions made in one statement recounted 500 items 500 times and
// updated the quiz's row 500 times, 20 s on PostgreSQL (CI's 30 s limit was passed under load). A statement trigger
// recounts each quiz the statement touched once, from its transition tables. SQLite has no statement triggers;
// its row triggers run in process and took 0.35 s for the same paper.

const ITEM_COLUMNS = [
  'quiz_id',
  'section_id',
  'position',
  'question_id',
  'draw_topic',
  'draw_tags',
  'draw_difficulty',
  'draw_source',
  'draw_count',
]

// The same count as 0010's, for every quiz `quizzes` (a subquery) names.
const recount = (quizzes: string) => `update quizzes set
    question_set_version = question_set_version + 1,
    question_count = (
      select count(*) from paper_items i join questions q on q.id = i.question_id
      where i.quiz_id = quizzes.id and q.deleted_at is null and q.revision_id is not null
    ) + (select coalesce(sum(i.draw_count), 0) from paper_items i where i.quiz_id = quizzes.id and i.question_id is null)
  where id in (${quizzes})`

const row = (alias: string) => `(${ITEM_COLUMNS.map((column) => `${alias}.${column}`).join(', ')})`
// An update recounts only the quizzes of items whose paper columns changed, as the row trigger's WHEN did.
const changedQuizzes = `select unnest(array[o.quiz_id, n.quiz_id]) from old_items o join new_items n using (id)
  where ${row('o')} is distinct from ${row('n')}`

// 0010's row trigger, for `down`.
const rowRecount = (quiz: string) => recount(`select ${quiz}`)

export const paperFiguresPerStatement = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    if (dialect !== 'postgres') return
    await sql.raw('drop trigger paper_items_figures on paper_items').execute(db)
    await sql.raw('drop trigger paper_items_figures_update on paper_items').execute(db)
    await sql.raw('drop function paper_items_keep_quiz_figures()').execute(db)
    await sql
      .raw(
        `create function paper_items_recount_quizzes() returns trigger language plpgsql as $$
         begin
           if tg_op = 'INSERT' then ${recount('select quiz_id from new_items')};
           elsif tg_op = 'DELETE' then ${recount('select quiz_id from old_items')};
           else ${recount(changedQuizzes)};
           end if;
           return null;
         end
         $$`,
      )
      .execute(db)
    for (const [event, tables] of [
      ['insert', 'new table as new_items'],
      ['delete', 'old table as old_items'],
      ['update', 'old table as old_items new table as new_items'],
    ])
      await sql
        .raw(
          `create trigger paper_items_figures_${event} after ${event} on paper_items referencing ${tables}
           for each statement execute function paper_items_recount_quizzes()`,
        )
        .execute(db)
  },
  async down(db: Kysely<unknown>) {
    if (dialect !== 'postgres') return
    for (const event of ['insert', 'delete', 'update'])
      await sql.raw(`drop trigger paper_items_figures_${event} on paper_items`).execute(db)
    await sql.raw('drop function paper_items_recount_quizzes()').execute(db)
    await sql
      .raw(
        `create function paper_items_keep_quiz_figures() returns trigger language plpgsql as $$
         begin
           if tg_op <> 'INSERT' then ${rowRecount('old.quiz_id')}; end if;
           if tg_op <> 'DELETE' then ${rowRecount('new.quiz_id')}; end if;
           return null;
         end
         $$`,
      )
      .execute(db)
    await sql
      .raw(
        `create trigger paper_items_figures after insert or delete on paper_items
         for each row execute function paper_items_keep_quiz_figures()`,
      )
      .execute(db)
    await sql
      .raw(
        `create trigger paper_items_figures_update after update on paper_items
         for each row when (${ITEM_COLUMNS.map((c) => `old.${c} is distinct from new.${c}`).join(' or ')})
         execute function paper_items_keep_quiz_figures()`,
      )
      .execute(db)
  },
})
