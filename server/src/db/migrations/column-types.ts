import type { ColumnDefinitionBuilder } from 'kysely'
import type { Dialect } from '../database'

/** An autoincrementing integer key and a byte column, as each database spells them. */
export const columnTypes = (dialect: Dialect) => ({
  id: dialect === 'postgres' ? ('serial' as const) : ('integer' as const),
  pk: (c: ColumnDefinitionBuilder) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()),
  blob: dialect === 'postgres' ? ('bytea' as const) : ('blob' as const),
})
