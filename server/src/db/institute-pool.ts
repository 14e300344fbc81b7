import type { PostgresPool, PostgresPoolClient } from 'kysely'
import pg from 'pg'
import { sessionInstitute } from './request-scope'

/** The institute row security shows the session (docs/decisions/098); '' is none: no institute's rows at all. */
const SET_INSTITUTE = "select set_config('app.institute_id', $1, false)"
const SET_INSTITUTE_NAME = 'set_institute'

// A connection's institute after a statement carrying its setting failed: the failure undid the setting with it.
const UNKNOWN = '\0unknown'

// A rollback needs no institute, and one carrying the setting would undo it while the connection reads idle after.
const ROLLS_BACK = /^\s*rollback\b/i
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
 * A statement sent behind the setting of its connection's institute, in one round trip (docs/decisions/134): Bind
 * and Execute of the parsed `set_institute`, then the statement's own messages, then one Sync. Both run in one
 * implicit transaction: if the setting fails the statement never runs, and if the statement fails the setting is
 * undone with it. The setting answers a row and a CommandComplete before the statement's, which are not the
 * statement's.
 */
class InInstitute extends Query {
  private settingAnswered = false

  constructor(
    private readonly institute: string,
    config: pg.QueryConfig,
    callback: (error: Error | undefined, result: pg.QueryResult) => void,
  ) {
    // Extended even for a BEGIN without parameters: a simple Query message would not share the Sync.
    super({ ...config, queryMode: 'extended' } as pg.QueryConfig, callback)
  }

  override prepare(connection: Wire) {
    connection.bind({ statement: SET_INSTITUTE_NAME, values: [this.institute] }, true)
    connection.execute({}, true)
    super.prepare(connection)
  }

  override handleDataRow(message: Answer) {
    if (this.settingAnswered) super.handleDataRow(message)
  }

  override handleCommandComplete(message: Answer, connection: Wire) {
    if (this.settingAnswered) super.handleCommandComplete(message, connection)
    else this.settingAnswered = true
  }
}

// `institute`: what the connection was last set to; `unsure`: set inside a transaction, whose rollback would undo it;
// `checked`: compared with the work's institute since this checkout.
type Known = { wrapped: PostgresPoolClient; institute: string; unsure: boolean; checked: boolean }

/**
 * The pool Kysely takes on PostgreSQL. Named prepared statements, parsed once per connection (docs/decisions/040);
 * each connection set to the institute of the work that holds it, only when it differs from what it was last set to
 * (098), and then in the same round trip as the work's first statement (134).
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
    const name = preparedStatements ? statementName(sql) : undefined
    return name === undefined ? { text: sql, values: parameters } : { name, text: sql, values: parameters }
  }

  async function setThenRun(client: Client, known: Known, institute: string, sql: string, parameters?: unknown[]) {
    known.institute = UNKNOWN
    const result = await new Promise<pg.QueryResult>((resolve, reject) => {
      const query = new InInstitute(institute, statement(sql, parameters), (error, result) =>
        error ? reject(error) : resolve(result),
      )
      client.query(query as unknown as pg.QueryConfig)
    })
    known.institute = institute
    known.unsure = client._txStatus !== 'I'
    return result
  }

  function wrap(client: Client, known: Known): PostgresPoolClient {
    return {
      query: (async (sqlOrCursor: string, parameters?: unknown[]) => {
        // Work that enters another institute's scope on a connection it holds (a platform admin's act-as writes
        // the institute's trail in the platform's transaction) sets the session to it before its statement.
        const institute = wanted()
        const stale = !known.checked || known.institute !== institute
        const isText = typeof sqlOrCursor === 'string'
        if (stale && isText && ROLLS_BACK.test(sqlOrCursor)) return client.query(sqlOrCursor, parameters)
        const carries =
          isText &&
          preparedStatements &&
          SET_INSTITUTE_NAME in client.connection.parsedStatements &&
          (parameters?.length || BEGINS.test(sqlOrCursor) || statementName(sqlOrCursor) !== undefined)
        if (stale && carries) {
          known.checked = true
          return setThenRun(client, known, institute, sqlOrCursor, parameters)
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
        known = { wrapped: undefined as unknown as PostgresPoolClient, institute: '', unsure: false, checked: false }
        known.wrapped = wrap(client, known)
        clients.set(client, known)
      }
      // Set at the work's first statement, if what it was last set to is not surely the work's institute.
      known.checked = !known.unsure && known.institute === wanted()
      return known.wrapped
    },
    end: () => pool.end(),
  }
}
