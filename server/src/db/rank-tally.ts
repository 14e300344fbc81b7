import { sql, type SqlBool } from 'kysely'

// The counted attempt is the learner's lowest-numbered ranked one, once its marks are all final (no written part
// awaiting release); written once, as every repository must agree on it (docs/decisions/014, 056 and 062 "In the
// code"). Only outcomes/ writes the tally it defines.
export const isCountedAttempt = (alias: string) =>
  sql<SqlBool>`(${sql.ref(`${alias}.ranked`)} = 1 and ${sql.ref(`${alias}.marks_pending`)} = 0 and (${sql.ref(`${alias}.attempt_number`)} = 1 or not exists (
    select 1 from attempts earlier
    where earlier.user_id = ${sql.ref(`${alias}.user_id`)} and earlier.quiz_id = ${sql.ref(`${alias}.quiz_id`)}
      and earlier.ranked = 1 and earlier.attempt_number < ${sql.ref(`${alias}.attempt_number`)}
  )))`
