import {
  createQueryId,
  SelectQueryNode,
  type Compilable,
  type CompiledQuery,
  type Kysely,
  type QueryResult,
  type RootOperationNode,
} from 'kysely'
import { isPostgres, prepareOnPostgres, sqliteReaderOf, sqliteTransactionOf } from './database'
import { currentInstitute, outsideRequestScope } from './request-scope'
import type { DB } from './schema'
import { TenantFilter } from './tenant-filter'
import type { SqliteStatement } from './sqlite-driver'

const MARKER = '\u0000precompiled-argument:'

interface Compiled<R> {
  query: CompiledQuery<R>
  slots: (number | undefined)[]
}

// Built once per dialect, each call only binds (decisions 016, 021, 040): `build` uses its arguments as values only.
export function precompile<A extends unknown[], R>(build: (db: Kysely<DB>, ...args: A) => Compilable<R>) {
  // Keyed by the dialect's adapter class: a transaction shares it with its database, and tests make many databases.
  const compiled = new Map<unknown, Compiled<R>>()
  const scoped = new Map<unknown, Compiled<R>>()

  function compile(db: Kysely<DB>, arity: number, forInstitute: boolean): Compiled<R> {
    const markers = Array.from({ length: arity }, (_, index) => `${MARKER}${index}`) as A
    let query = build(db, ...markers).compile()
    if (forInstitute) {
      // The institute is one more argument, bound at each run from the request's scope (docs/decisions/095).
      const node = new TenantFilter(`${MARKER}${arity}`).transformNode(query.query) as RootOperationNode
      query = db.getExecutor().compileQuery<R>(node, createQueryId())
    }
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
    const institute = currentInstitute()
    const cache = institute === undefined ? compiled : scoped
    let entry = cache.get(key)
    if (!entry) {
      entry = outsideRequestScope(() => compile(db, args.length, institute !== undefined))
      cache.set(key, entry)
    }
    const { query, slots } = entry
    const parameters = query.parameters.map((fixed, index) => {
      const slot = slots[index]
      return slot === undefined ? fixed : slot === args.length ? institute : args[slot]
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
