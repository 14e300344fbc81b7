import { writtenAnswerMessages } from '@quiz/contracts'
import { sql, type Kysely } from 'kysely'
import type { DB } from '../db/schema'
import { Conflict } from '../http/errors'

// A learner's kept written-answer pages are bounded in bytes (UPLOAD_QUOTA_MB_PER_LEARNER, docs/decisions/088): the
// pages a question takes are few, but attempts can be many.

export const uploadQuotaExceeded = () => new Conflict(writtenAnswerMessages.uploadQuota, 'upload_quota_exceeded')

/** Bytes of the page images (and their phone renditions) of the learner's written answers, each image once. */
export async function pageBytesOf(db: Kysely<DB>, userId: number): Promise<number> {
  const row = await db
    .selectFrom('page_images as i')
    .select(
      sql<
        number | string
      >`coalesce(sum(coalesce(i.data_size, length(i.data)) + coalesce(i.phone_size, length(i.phone_data), 0)), 0)`.as(
        'used',
      ),
    )
    .where('i.hash', 'in', (eb) =>
      eb
        .selectFrom('written_answer_pages as p')
        .innerJoin('written_answers as w', 'w.id', 'p.answer_id')
        .innerJoin('attempts as a', 'a.id', 'w.attempt_id')
        .select('p.image_hash')
        .where('a.user_id', '=', userId),
    )
    .executeTakeFirstOrThrow()
  // PostgreSQL's sum of integers is a bigint, which pg returns as a string.
  return Number(row.used)
}
