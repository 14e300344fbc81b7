/** True when a write broke a UNIQUE or PRIMARY KEY constraint, on SQLite and PostgreSQL alike. */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false
  const { code } = error as { code?: unknown }
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
}

// SQLSTATEs for "cannot serve now": 08 connection, 53 resources, 57P01-57P03 shutdown; not 40001/40P01 (retried).
const postgresUnavailable = /^(08...|53...|57P0[123])$/
const socketErrors = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
])
// SQLite: still locked after busy_timeout, the disk full or failing.
const sqliteUnavailable = /^SQLITE_(BUSY|LOCKED|FULL|IOERR|CANTOPEN)/
// node-postgres reports a dropped connection and a pool wait that ran out by message only, without a code.
const pgDroppedMessages = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
]

/** The database is down, unreachable, overloaded or out of disk: answered 503, and nothing was committed. */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false
  const { code, message } = error as { code?: unknown; message?: unknown }
  if (typeof code === 'string') {
    if (postgresUnavailable.test(code) || socketErrors.has(code) || sqliteUnavailable.test(code)) return true
  }
  if (typeof message === 'string' && pgDroppedMessages.some((text) => message.startsWith(text))) return true
  const { cause } = error as { cause?: unknown }
  return cause !== undefined && cause !== error && isDatabaseUnavailable(cause)
}
