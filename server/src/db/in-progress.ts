import { sql } from 'kysely'

/**
 * `status = 'in_progress'` written into the SQL, never bound as a parameter. SQLite has a partial index on it
 * (`attempts_one_in_progress`), and a parameter that could decide whether a partial index applies makes SQLite
 * prepare the statement again at every run, which made the quiz-and-attempt read of every question fetch several
 * times dearer (decision 016; docs/performance.md).
 */
export const IN_PROGRESS = sql.lit<'in_progress'>('in_progress')
