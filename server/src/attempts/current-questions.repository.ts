import type { Kysely } from 'kysely'
import { precompile } from '../db/precompiled-query'
import type { DB } from '../db/schema'

const selectVersion = precompile((db: Kysely<DB>, quizId: number) =>
  db.selectFrom('quizzes').select('question_set_version').where('id', '=', quizId),
)

// One statement, so one snapshot: on PostgreSQL two statements of one transaction may see different commits.
const selectVersionWithPaper = precompile((db: Kysely<DB>, quizId: number) =>
  db
    .selectFrom('quizzes as z')
    .leftJoin('paper_sections as s', 's.quiz_id', 'z.id')
    .leftJoin('paper_items as i', 'i.section_id', 's.id')
    .leftJoin('questions as q', (join) =>
      join.onRef('q.id', '=', 'i.question_id').on('q.deleted_at', 'is', null).on('q.revision_id', 'is not', null),
    )
    .select([
      'z.question_set_version',
      's.id as section_id',
      's.title_en',
      's.title_ne',
      's.marks_correct',
      's.marks_wrong',
      's.time_limit_minutes',
      's.multiple_scheme',
      's.partial_marks',
      's.numeric_negative',
      'i.id as item_id',
      'i.question_id',
      'i.draw_topic',
      'i.draw_tags',
      'i.draw_difficulty',
      'i.draw_source',
      'i.draw_type',
      'i.draw_count',
      'i.draw_passages',
      'q.revision_id',
    ])
    .where('z.id', '=', quizId)
    .orderBy('s.position')
    .orderBy('s.id')
    .orderBy('i.position')
    .orderBy('i.id'),
)

export async function findQuestionSetVersion(db: Kysely<DB>, quizId: number) {
  return (await selectVersion(db, quizId)).rows[0]?.question_set_version
}

export async function listVersionWithPaper(db: Kysely<DB>, quizId: number) {
  return (await selectVersionWithPaper(db, quizId)).rows
}
