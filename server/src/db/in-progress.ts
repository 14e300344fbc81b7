import { sql } from 'kysely'

/**
 * `status = 'in_progress'` written into the SQL, never bound: a parameter that could decide whether SQLite's partial
 * index `attempts_one_in_progress` applies makes it prepare the statement again at every run (docs/decisions/016).
 */
export const IN_PROGRESS = sql.lit<'in_progress'>('in_progress')
