import { sql, type SqlBool } from 'kysely'

// Which attempt counts: one condition with one home, in every repository's SQL that asks (docs/decisions/062).
export const isCountedAttempt = (alias: string) =>
  sql<SqlBool>`(${sql.ref(`${alias}.ranked`)} = 1 and ${sql.ref(`${alias}.marks_pending`)} = 0 and (${sql.ref(`${alias}.attempt_number`)} = 1 or not exists (
    select 1 from attempts earlier
    where earlier.user_id = ${sql.ref(`${alias}.user_id`)} and earlier.quiz_id = ${sql.ref(`${alias}.quiz_id`)}
      and earlier.ranked = 1 and earlier.attempt_number < ${sql.ref(`${alias}.attempt_number`)}
  )))`
