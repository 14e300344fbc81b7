import type { Dialect } from '../src/db/database'

/** Every API test runs on SQLite, and on PostgreSQL too when TEST_DATABASE_URL is set (CI sets it). */
export const dialects: Dialect[] = ['sqlite', ...(process.env.TEST_DATABASE_URL ? (['postgres'] as const) : [])]
