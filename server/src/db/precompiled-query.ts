import { SelectQueryNode, type Compilable, type CompiledQuery, type Kysely, type QueryResult } from 'kysely'
import { isPostgres, prepareOnPostgres, sqliteReaderOf, sqliteTransactionOf } from './database'
import type { DB } from './schema'
import type { SqliteStatement } from './sqlite-driver'

const MARKER = '\u0000precompiled-argument:'

// Built once per dialect, each call only binds (decisions 016, 021, 040): `build` uses its arguments as values only.
export function precompile<A extends unknown[], R>(build: (db: Kysely<DB>, ...args: A) => Compilable<R>) {
  // Keyed by the dialect's adapter class: a transaction shares it with its database, and tests make many databases.
  const compiled = new Map<unknown, { query: CompiledQuery<R>; slots: (number | undefined)[] }>()

  function compile(db: Kysely<DB>, arity: number) {
    const markers = Array.from({ length: arity }, (_, index) => `${MARKER}${index}`) as A
    const query = build(db, ...markers).compile()
    const slots = query.parameters.map((value) =>
      typeof value === 'string' && value.startsWith(MARKER) ? Number(value.slice(MARKER.length)) : undefined,
    )
    for (let index = 0; index < arity; index++) {
      if (!slots.includes(index)) throw new Error(`precompiled query does not bind argument ${index}`)
    }
    if (isPostgres(db)) prepareOnPostgres(query.sql)
    return { query, slots }
  }

  return async function run(db: Kysely<DB>, ...args: A): Promise<QueryResult<R>> {
    const key = db.getExecutor().adapter.constructor
    let entry = compiled.get(key)
    if (!entry) compiled.set(key, (entry = compile(db, args.length)))
    const { query, slots } = entry
    const parameters = query.parameters.map((fixed, index) => {
      const slot = slots[index]
      return slot === undefined ? fixed : args[slot]
    })
    const statements = sqliteTransactionOf(db) ?? (SelectQueryNode.is(query.query) ? sqliteReaderOf(db) : undefined)
    if (!statements) return db.executeQuery<R>({ ...query, parameters })
    const statement = statements.prepare(query.sql)
    if (statement.reader) return { rows: rowsOf(statement, parameters) as R[] }
    const { changes, lastInsertRowid } = statement.run(parameters)
    return { rows: [], numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid) }
  }
}

// Rows as arrays, made objects of one shape by a literal: half the list's statement time (docs/performance.md).
const rowShapes = new WeakMap<SqliteStatement, (values: unknown[]) => unknown>()

function rowsOf(statement: SqliteStatement, parameters: readonly unknown[]) {
  let toRow = rowShapes.get(statement)
  if (!toRow) {
    const fields = statement.columns().map(({ name }, index) => `${JSON.stringify(name)}: values[${index}]`)
    // Column names only, each a JSON string literal: no value of a row or a request reaches this source.
    toRow = new Function('values', `return { ${fields.join(', ')} }`) as (values: unknown[]) => unknown
    rowShapes.set(statement, toRow)
  }
  statement.raw(true)
  try {
    return (statement.all(parameters) as unknown[][]).map(toRow)
  } finally {
    statement.raw(false)
  }
}
