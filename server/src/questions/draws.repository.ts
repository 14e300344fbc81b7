import { sql, type Kysely, type SqlBool } from 'kysely'
import { precompile } from '../db/precompiled-query'
import type { DB, QuestionType } from '../db/schema'
import type { DrawFilter } from './draws'

export async function matchingQuestionIds(db: Kysely<DB>, draw: DrawFilter): Promise<number[]> {
  const tagKeys = [...new Set(draw.tags.map((tag) => tag.toLowerCase()))]
  const rows = await db
    .selectFrom('questions as q')
    .innerJoin('question_revisions as r', 'r.id', 'q.revision_id')
    .select('q.id')
    .where('q.deleted_at', 'is', null)
    // A draw never takes a national mock's copy: its paper is secret until the common end (docs/decisions/102).
    .where('q.national_mock_id', 'is', null)
    .$if(draw.topic !== null && draw.topic !== '', (query) =>
      query.where((eb) => eb(eb.fn('lower', ['r.topic']), '=', draw.topic!.toLowerCase())),
    )
    .$if(draw.difficulty !== null, (query) => query.where('q.difficulty', '=', draw.difficulty!))
    .$if(draw.type !== null, (query) => query.where('r.type', '=', draw.type as QuestionType))
    .$if(draw.source !== null && draw.source !== '', (query) =>
      query.where((eb) => eb(eb.fn('lower', ['q.source']), '=', draw.source!.toLowerCase())),
    )
    .$if(tagKeys.length > 0, (query) =>
      query.where(
        (eb) =>
          sql<SqlBool>`(${eb
            .selectFrom('question_tags as qt')
            .innerJoin('tags as t', 't.id', 'qt.tag_id')
            .select((sub) => sub.fn.countAll().as('n'))
            .whereRef('qt.question_id', '=', 'q.id')
            .where('t.name_key', 'in', tagKeys)}) = ${tagKeys.length}`,
      ),
    )
    // A passage's questions are drawn with it, whole; a lone draw never takes one (docs/decisions/117).
    .where((eb) => {
      const inPassage = eb.exists(
        eb.selectFrom('passage_questions as pq').select('pq.question_id').whereRef('pq.question_id', '=', 'q.id'),
      )
      return draw.passages ? inPassage : eb.not(inPassage)
    })
    .orderBy('q.id')
    .execute()
  return rows.map((row) => row.id)
}

const selectBankVersion = precompile((db: Kysely<DB>) =>
  db.selectFrom('question_revisions').select((eb) => eb.fn.max('id').as('version')),
)

// Every change to what a draw matches writes a revision.
export async function bankVersion(db: Kysely<DB>): Promise<number> {
  return Number((await selectBankVersion(db)).rows[0]?.version ?? 0)
}
