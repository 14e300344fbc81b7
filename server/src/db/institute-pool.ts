import type { PostgresPool, PostgresPoolClient } from 'kysely'
import pg from 'pg'
import { sessionInstitute } from './request-scope'

/** The institute row security shows the session (docs/decisions/098); '' is none: no institute's rows at all. */
const SET_INSTITUTE = "select set_config('app.institute_id', $1, false)"
const SET_INSTITUTE_NAME = 'set_institute'

// A connection's institute after a statement carrying its setting failed: the failure undid the setting with it.
const UNKNOWN = '\0unknown'

/** A transaction's start, named and parsed once per connection, so that it can ride on the work's first statement. */
const BEGIN_NAME = 'tx_begin'
const BEGIN_TEXT = 'begin'
// The start Kysely sends without an isolation level or access mode: the one held back.
const PLAIN_BEGIN = /^\s*begin\s*$/i

// A rollback needs no institute, and one carrying the setting would undo it while the connection reads idle after.
const ROLLS_BACK = /^\s*rollback\b/i
// A transaction's end: after a BEGIN held back and nothing else, there is no transaction to end.
const ENDS = /^\s*(commit|end|rollback)\b[^;]*$/i
// The text without parameters that may carry the setting: a transaction's start. Others may hold several statements,
// which only the simple protocol takes.
const BEGINS = /^\s*(begin|start transaction)\b[^;]*$/i

// What node-postgres keeps of a connection and does not type: the named statements it has parsed, and the
// transaction status of its last ReadyForQuery ('I' idle, 'T' in a transaction, 'E' in a failed one).
type Wire = pg.Connection & { parsedStatements: Record<string, string> }
type Client = pg.PoolClient & { connection: Wire; _txStatus: string | null }

// What node-postgres's Query does and does not type: the messages of its statement, and each answer's handler.
type Answer = { fields: unknown[] }
interface QueryMessages {
  prepare(connection: Wire): void
  handleDataRow(message: Answer): void
  handleCommandComplete(message: Answer, connection: Wire): void
}
const Query = pg.Query as unknown as new (
  config: pg.QueryConfig,
  callback: (error: Error | undefined, result: pg.QueryResult) => void,
) => QueryMessages

/**
 * A statement sent behind what its connection needs first, in one round trip: the setting of its institute (Bind and
 * Execute of the parsed `set_institute`, docs/decisions/134), a transaction's start held back until its first
 * statement (Bind and Execute of the parsed `tx_begin`, decision 139), or both; then the statement's own messages,
 * then one Sync. They run in one implicit transaction, which the BEGIN turns into the work's: if the setting fails
 * the statement never runs, and if the statement fails the setting is undone with it. What comes before answers a
 * CommandComplete each (the setting a row too) ahead of the statement's, which are not the statement's.
 */
class Carried extends Query {
  private preludes: number

  constructor(
    private readonly carried: { institute?: string; begins?: boolean },
    config: pg.QueryConfig,
    callback: (error: Error | undefined, result: pg.QueryResult) => void,
  ) {
    // Extended even for a BEGIN without parameters: a simple Query message would not share the Sync.
    super({ ...config, queryMode: 'extended' } as pg.QueryConfig, callback)
    this.preludes = (carried.institute === undefined ? 0 : 1) + (carried.begins ? 1 : 0)
  }

  override prepare(connection: Wire) {
    if (this.carried.institute !== undefined) {
      connection.bind({ statement: SET_INSTITUTE_NAME, values: [this.carried.institute] }, true)
      connection.execute({}, true)
    }
    if (this.carried.begins) {
      connection.bind({ statement: BEGIN_NAME, values: [] }, true)
      connection.execute({}, true)
    }
    super.prepare(connection)
  }

  override handleDataRow(message: Answer) {
    if (this.preludes === 0) super.handleDataRow(message)
  }

  override handleCommandComplete(message: Answer, connection: Wire) {
    if (this.preludes === 0) super.handleCommandComplete(message, connection)
    else this.preludes--
  }
}

// `institute`: what the connection was last set to; `unsure`: set inside a transaction, whose rollback would undo it;
// `checked`: compared with the work's institute since this checkout; `begun`: a BEGIN held back, sent with the next
// statement.
type Known = {
  wrapped: PostgresPoolClient
  institute: string
  unsure: boolean
  checked: boolean
  begun: boolean
}

/** What node-postgres answers a statement without rows; Kysely reads `command`, `rowCount` and `rows`. */
const answered = (command: string) => ({ command, rowCount: null, rows: [], fields: [] }) as unknown as pg.QueryResult

/**
 * The pool Kysely takes on PostgreSQL. Named prepared statements, parsed once per connection (docs/decisions/040);
 * each connection set to the institute of the work that holds it, only when it differs from what it was last set to
 * (098), and then in the same round trip as the work's first statement (134), as is a transaction's BEGIN (139).
 */
export function institutePool(
  pool: pg.Pool,
  {
    preparedStatements,
    statementName,
  }: { preparedStatements: boolean; statementName(sql: string): string | undefined },
): PostgresPool {
  const clients = new WeakMap<pg.PoolClient, Known>()
  const wanted = () => String(sessionInstitute() ?? '')

  // Named, so parsed once per connection like the precompiled statements: requests spread over many institutes
  // switch a connection's institute at nearly every checkout (docs/performance.md, fifteenth session).
  const setAlone = (client: Client, institute: string) =>
    preparedStatements
      ? client.query({ name: SET_INSTITUTE_NAME, text: SET_INSTITUTE, values: [institute] })
      : client.query(SET_INSTITUTE, [institute])

  const statement = (sql: string, parameters?: unknown[]): pg.QueryConfig => {
    // A plain BEGIN under the name it is held back by once parsed (decision 139).
    if (preparedStatements && PLAIN_BEGIN.test(sql)) return { name: BEGIN_NAME, text: BEGIN_TEXT, values: parameters }
    const name = preparedStatements ? statementName(sql) : undefined
    return name === undefined ? { text: sql, values: parameters } : { name, text: sql, values: parameters }
  }

  /** `sql` behind what must come first in its round trip (decisions 134 and 139); a setting it carries is known after. */
  async function carriedRun(
    client: Client,
    known: Known,
    carried: { institute?: string; begins: boolean },
    sql: string,
    parameters?: unknown[],
  ) {
    if (carried.institute !== undefined) known.institute = UNKNOWN
    const result = await new Promise<pg.QueryResult>((resolve, reject) => {
      const query = new Carried(carried, statement(sql, parameters), (error, result) =>
        error ? reject(error) : resolve(result),
      )
      client.query(query as unknown as pg.QueryConfig)
    })
    if (carried.institute !== undefined) {
      known.institute = carried.institute
      known.unsure = client._txStatus !== 'I'
    }
    return result
  }

  function wrap(client: Client, known: Known): PostgresPoolClient {
    return {
      query: (async (sqlOrCursor: string, parameters?: unknown[]) => {
        const isText = typeof sqlOrCursor === 'string'
        const parsed = client.connection.parsedStatements
        if (isText && known.begun && ENDS.test(sqlOrCursor)) {
          // Nothing was sent since the BEGIN held back: there is no transaction to end.
          known.begun = false
          return answered(ROLLS_BACK.test(sqlOrCursor) ? 'ROLLBACK' : 'COMMIT')
        }
        if (isText && !known.begun && PLAIN_BEGIN.test(sqlOrCursor) && BEGIN_NAME in parsed) {
          // Held back, to ride on the work's first statement (decision 139). Nothing is locked or read by a BEGIN
          // itself: READ COMMITTED takes each statement's snapshot as it runs.
          known.begun = true
          return answered('BEGIN')
        }
        // Work that enters another institute's scope on a connection it holds (a platform admin's act-as writes
        // the institute's trail in the platform's transaction) sets the session to it before its statement.
        const institute = wanted()
        const stale = !known.checked || known.institute !== institute
        if (stale && isText && ROLLS_BACK.test(sqlOrCursor)) return client.query(sqlOrCursor, parameters)
        const carriable =
          isText &&
          preparedStatements &&
          (parameters?.length || BEGINS.test(sqlOrCursor) || statementName(sqlOrCursor) !== undefined)
        const setsHere = stale && carriable && SET_INSTITUTE_NAME in parsed
        // A held BEGIN rides alone only where no setting is due: a stale connection not yet able to carry its setting
        // (never set, so `set_institute` is not parsed) is set below first, and the BEGIN then goes alone.
        if (setsHere || (known.begun && carriable && !stale)) {
          const begins = known.begun
          known.checked = true
          known.begun = false
          return carriedRun(
            client,
            known,
            { institute: setsHere ? institute : undefined, begins },
            sqlOrCursor,
            parameters,
          )
        }
        if (stale) {
          // The connection's first setting (which parses it), a pooler without named statements, a cursor, or text
          // that may hold several statements.
          known.institute = UNKNOWN
          await setAlone(client, institute)
          known.institute = institute
          known.unsure = client._txStatus !== 'I'
          known.checked = true
        }
        if (known.begun) {
          // A cursor, or text that may hold several statements, which the extended protocol refuses: the BEGIN alone.
          known.begun = false
          await client.query({ name: BEGIN_NAME, text: BEGIN_TEXT })
        }
        // A cursor (Kysely's streaming) passes through as it came.
        return isText ? client.query(statement(sqlOrCursor, parameters)) : client.query(sqlOrCursor, parameters)
      }) as unknown as PostgresPoolClient['query'],
      release: () => client.release(),
    }
  }

  return {
    async connect() {
      const client = (await pool.connect()) as Client
      let known = clients.get(client)
      if (!known) {
        known = {
          wrapped: undefined as unknown as PostgresPoolClient,
          institute: '',
          unsure: false,
          checked: false,
          begun: false,
        }
        known.wrapped = wrap(client, known)
        clients.set(client, known)
      }
      // Set at the work's first statement, if what it was last set to is not surely the work's institute.
      known.checked = !known.unsure && known.institute === wanted()
      known.begun = false
      return known.wrapped
    },
    end: () => pool.end(),
  }
}
