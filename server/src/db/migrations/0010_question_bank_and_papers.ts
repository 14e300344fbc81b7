import { sql, type Kysely, type Migration } from 'kysely'
import type { Dialect } from '../database'
import { columnTypes } from './column-types'

// docs/decisions/029: one bank of questions; every quiz becomes one +1 / -0.2 section of its live questions.

// The paper's question count (fixed live items plus draw counts) of the quiz `quiz`, as SQL both databases run.
const recount = (quiz: string) => `update quizzes set
    question_set_version = question_set_version + 1,
    question_count = (
      select count(*) from paper_items i join questions q on q.id = i.question_id
      where i.quiz_id = quizzes.id and q.deleted_at is null and q.revision_id is not null
    ) + (select coalesce(sum(i.draw_count), 0) from paper_items i where i.quiz_id = quizzes.id and i.question_id is null)
  where ${quiz}`

const QUESTION_CHANGED = (differ: string) =>
  ['revision_id', 'deleted_at'].map((c) => `old.${c} ${differ} new.${c}`).join(' or ')
const ITEM_CHANGED = (differ: string) =>
  [
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
    .map((c) => `old.${c} ${differ} new.${c}`)
    .join(' or ')

const BATCH = 500

export const questionBankAndPapers = (dialect: Dialect): Migration => {
  const { id, pk } = columnTypes(dialect)

  return {
    async up(db: Kysely<unknown>) {
      if (dialect === 'postgres') {
        await sql`drop trigger questions_figures_insert on questions`.execute(db)
        await sql`drop trigger questions_figures_update on questions`.execute(db)
        await sql`drop function questions_keep_quiz_figures()`.execute(db)
      } else {
        await sql`drop trigger questions_figures_insert`.execute(db)
        await sql`drop trigger questions_figures_update`.execute(db)
      }

      await db.schema
        .createTable('tags')
        .addColumn('id', id, pk)
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('name_key', 'text', (c) => c.notNull().unique())
        .execute()
      await db.schema
        .createTable('question_tags')
        .addColumn('question_id', 'integer', (c) => c.notNull().references('questions.id'))
        .addColumn('tag_id', 'integer', (c) => c.notNull().references('tags.id'))
        .addColumn('position', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('question_tags_pk', ['question_id', 'tag_id'])
        .execute()
      await db.schema.createIndex('question_tags_tag').on('question_tags').columns(['tag_id', 'question_id']).execute()

      await db.schema
        .createTable('paper_sections')
        .addColumn('id', id, pk)
        .addColumn('quiz_id', 'integer', (c) => c.notNull().references('quizzes.id'))
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('title_en', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('title_ne', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('marks_correct', 'integer', (c) => c.notNull().defaultTo(100))
        .addColumn('marks_wrong', 'integer', (c) => c.notNull().defaultTo(20))
        .addColumn('time_limit_minutes', 'integer')
        .execute()
      await db.schema.createIndex('paper_sections_quiz').on('paper_sections').columns(['quiz_id', 'position']).execute()

      await db.schema
        .createTable('paper_items')
        .addColumn('id', id, pk)
        .addColumn('quiz_id', 'integer', (c) => c.notNull().references('quizzes.id'))
        .addColumn('section_id', 'integer', (c) => c.notNull().references('paper_sections.id').onDelete('cascade'))
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('question_id', 'integer', (c) => c.references('questions.id'))
        .addColumn('draw_topic', 'text')
        .addColumn('draw_tags', 'text')
        .addColumn('draw_difficulty', 'text')
        .addColumn('draw_source', 'text')
        .addColumn('draw_count', 'integer')
        .execute()
      await db.schema.createIndex('paper_items_quiz').on('paper_items').columns(['quiz_id', 'section_id']).execute()
      await db.schema.createIndex('paper_items_question').on('paper_items').column('question_id').execute()

      await db.schema
        .alterTable('quizzes')
        .addColumn('draw_mode', 'text', (c) => c.notNull().defaultTo('per_attempt'))
        .execute()
      await db.schema.alterTable('quizzes').addColumn('frozen_draw', 'text').execute()
      await db.schema.alterTable('attempts').addColumn('sections', 'text').execute()
      await db.schema
        .alterTable('attempts')
        .addColumn('current_section', 'integer', (c) => c.notNull().defaultTo(0))
        .execute()
      await db.schema.alterTable('attempts').addColumn('section_opened_at', 'bigint').execute()
      await db.schema
        .alterTable('practice_cards')
        .addColumn('quiz_id', 'integer', (c) => c.references('quizzes.id'))
        .execute()
      await sql`update practice_cards set quiz_id = (select quiz_id from questions where questions.id = practice_cards.question_id)`.execute(
        db,
      )

      await sql`insert into paper_sections (quiz_id, position) select id, 1 from quizzes`.execute(db)
      await sql`
        insert into paper_items (quiz_id, section_id, position, question_id)
        select q.quiz_id, s.id, q.position, q.id
        from questions q join paper_sections s on s.quiz_id = q.quiz_id
        where q.deleted_at is null and q.revision_id is not null`.execute(db)

      if (dialect === 'postgres') {
        await sql`alter table questions drop column quiz_id cascade`.execute(db)
        await sql`alter table questions drop column position`.execute(db)
        await sql`alter table questions add column difficulty text`.execute(db)
        await sql`alter table questions add column source text`.execute(db)
      } else {
        // SQLite cannot drop a column a foreign key names: rebuilt, foreign keys off (Kysely runs it outside a transaction).
        await sql`pragma foreign_keys = off`.execute(db)
        await sql`begin`.execute(db)
        await sql`
          create table questions_new (
            id integer primary key autoincrement,
            revision_id integer,
            deleted_at bigint,
            difficulty text,
            source text
          )`.execute(db)
        await sql`insert into questions_new (id, revision_id, deleted_at) select id, revision_id, deleted_at from questions`.execute(
          db,
        )
        await sql`drop table questions`.execute(db)
        await sql`alter table questions_new rename to questions`.execute(db)
        const broken = await sql`pragma foreign_key_check`.execute(db)
        if (broken.rows.length > 0) {
          await sql`rollback`.execute(db)
          await sql`pragma foreign_keys = on`.execute(db)
          throw new Error('Rebuilding questions broke a foreign key.')
        }
        await sql`commit`.execute(db)
        await sql`pragma foreign_keys = on`.execute(db)
      }
      await db.schema.createIndex('questions_live').on('questions').columns(['deleted_at', 'id']).execute()

      await db.schema
        .createTable('question_shows')
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('question_id', 'integer', (c) => c.notNull().references('questions.id'))
        .addColumn('shown_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('question_shows_pk', ['user_id', 'question_id'])
        .execute()
      const questionOf = new Map(
        (
          await sql<{ id: number; question_id: number }>`select id, question_id from question_revisions`.execute(db)
        ).rows.map((row) => [Number(row.id), Number(row.question_id)]),
      )
      const shown = new Map<string, { user: number; question: number; at: number }>()
      const attempts = (
        await sql<{ user_id: number; started_at: number; revision_ids: string }>`
          select user_id, started_at, revision_ids from attempts`.execute(db)
      ).rows
      for (const attempt of attempts) {
        for (const revisionId of JSON.parse(attempt.revision_ids) as number[]) {
          const question = questionOf.get(revisionId)
          if (question === undefined) continue
          const key = `${attempt.user_id}:${question}`
          const at = Number(attempt.started_at)
          const seen = shown.get(key)
          if (!seen || seen.at < at) shown.set(key, { user: Number(attempt.user_id), question, at })
        }
      }
      const rows = [...shown.values()]
      for (let start = 0; start < rows.length; start += BATCH) {
        const values = rows.slice(start, start + BATCH).map((row) => sql`(${row.user}, ${row.question}, ${row.at})`)
        await sql`insert into question_shows (user_id, question_id, shown_at) values ${sql.join(values)}`.execute(db)
      }

      const itemsChanged = (row: 'new' | 'old') => recount(`id = ${row}.quiz_id`)
      const questionChanged = recount('id in (select quiz_id from paper_items where question_id = new.id)')
      if (dialect === 'postgres') {
        await sql
          .raw(
            `create function paper_items_keep_quiz_figures() returns trigger language plpgsql as $$
             begin
               if tg_op <> 'INSERT' then ${itemsChanged('old')}; end if;
               if tg_op <> 'DELETE' then ${itemsChanged('new')}; end if;
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
             for each row when (${ITEM_CHANGED('is distinct from')}) execute function paper_items_keep_quiz_figures()`,
          )
          .execute(db)
        await sql
          .raw(
            `create function questions_keep_paper_figures() returns trigger language plpgsql as $$
             begin ${questionChanged}; return null; end
             $$`,
          )
          .execute(db)
        await sql
          .raw(
            `create trigger questions_paper_figures after update on questions
             for each row when (${QUESTION_CHANGED('is distinct from')}) execute function questions_keep_paper_figures()`,
          )
          .execute(db)
      } else {
        await sql
          .raw(
            `create trigger paper_items_figures_insert after insert on paper_items begin ${itemsChanged('new')}; end`,
          )
          .execute(db)
        await sql
          .raw(
            `create trigger paper_items_figures_delete after delete on paper_items begin ${itemsChanged('old')}; end`,
          )
          .execute(db)
        await sql
          .raw(
            `create trigger paper_items_figures_update after update on paper_items when ${ITEM_CHANGED('is not')}
             begin ${itemsChanged('old')}; ${itemsChanged('new')}; end`,
          )
          .execute(db)
        await sql
          .raw(
            `create trigger questions_paper_figures after update on questions when ${QUESTION_CHANGED('is not')}
             begin ${questionChanged}; end`,
          )
          .execute(db)
      }
      const sectionChanged = `update quizzes set question_set_version = question_set_version + 1 where id = new.quiz_id`
      if (dialect === 'postgres') {
        await sql
          .raw(
            `create function paper_sections_keep_version() returns trigger language plpgsql as $$
             begin ${sectionChanged}; return null; end
             $$`,
          )
          .execute(db)
        await sql
          .raw(
            `create trigger paper_sections_version after update on paper_sections
             for each row execute function paper_sections_keep_version()`,
          )
          .execute(db)
      } else {
        await sql
          .raw(`create trigger paper_sections_version after update on paper_sections begin ${sectionChanged}; end`)
          .execute(db)
      }
      await sql.raw(recount('1 = 1')).execute(db)
    },
  }
}
