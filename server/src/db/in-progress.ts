import { sql } from 'kysely'

/** Written into the SQL, never bound: a bound one makes SQLite re-prepare for its partial index (decision 016). */
export const IN_PROGRESS = sql.lit<'in_progress'>('in_progress')
