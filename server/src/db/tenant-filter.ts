import {
  AliasNode,
  AndNode,
  BinaryOperationNode,
  ColumnNode,
  DeleteQueryNode,
  IdentifierNode,
  InsertQueryNode,
  JoinNode,
  OperationNodeTransformer,
  OnNode,
  OperatorNode,
  ParensNode,
  PrimitiveValueListNode,
  RawNode,
  ReferenceNode,
  SelectionNode,
  SelectQueryNode,
  TableNode,
  UpdateQueryNode,
  ValueListNode,
  ValueNode,
  ValuesNode,
  WhereNode,
  type OperationNode,
  type QueryId,
} from 'kysely'
import { instituteOwnedTables } from './tenancy'

const INSTITUTE_COLUMN = 'institute_id'

/** The name a query refers to an institute's table by (its alias, or its own name), or undefined for other tables. */
function ownedTableName(node: OperationNode): string | undefined {
  if (TableNode.is(node)) {
    const name = node.table.identifier.name
    return instituteOwnedTables.has(name) ? name : undefined
  }
  if (AliasNode.is(node) && TableNode.is(node.node) && IdentifierNode.is(node.alias)) {
    return instituteOwnedTables.has(node.node.table.identifier.name) ? node.alias.name : undefined
  }
  return undefined
}

// `a or b` (a raw condition's text included) and the filter: the condition in parentheses, or the filter would bind
// to its last term alone and let the other terms read every institute.
const bothOf = (condition: OperationNode, filter: OperationNode) =>
  AndNode.create(ParensNode.is(condition) ? condition : ParensNode.create(condition), filter)

/**
 * Rewrites every query so that it reads, changes and writes only one institute's rows (docs/decisions/095): each
 * institute-owned table in a FROM, USING or UPDATE gets `<table>.institute_id = <institute>` in the WHERE, each one
 * joined gets it in its ON (a LEFT JOIN stays a left join), and each insert into one gets the column. `institute` is a
 * value, or a precompiled statement's marker that becomes a parameter (precompiled-query.ts). Subqueries and CTEs
 * are rewritten too; SQL written as raw text is not (PostgreSQL's row security holds there, and the isolation test).
 */
export class TenantFilter extends OperationNodeTransformer {
  readonly #institute: unknown

  constructor(institute: unknown) {
    super()
    this.#institute = institute
  }

  #matches(name: string) {
    return BinaryOperationNode.create(
      ReferenceNode.create(ColumnNode.create(INSTITUTE_COLUMN), TableNode.create(name)),
      OperatorNode.create('='),
      ValueNode.create(this.#institute),
    )
  }

  #filtered(where: WhereNode | undefined, tables: readonly OperationNode[]) {
    for (const table of tables) {
      const name = ownedTableName(table)
      if (name === undefined) continue
      where = WhereNode.create(where ? bothOf(where.where, this.#matches(name)) : this.#matches(name))
    }
    return where
  }

  #joined(joins: readonly JoinNode[] | undefined) {
    return joins?.map((join) => {
      const name = ownedTableName(join.table)
      if (name === undefined) return join
      return { ...join, on: OnNode.create(join.on ? bothOf(join.on.on, this.#matches(name)) : this.#matches(name)) }
    })
  }

  protected override transformSelectQuery(node: SelectQueryNode, queryId?: QueryId): SelectQueryNode {
    const query = super.transformSelectQuery(node, queryId)
    if (!query.from) return query
    return { ...query, joins: this.#joined(query.joins), where: this.#filtered(query.where, query.from.froms) }
  }

  protected override transformUpdateQuery(node: UpdateQueryNode, queryId?: QueryId): UpdateQueryNode {
    const query = super.transformUpdateQuery(node, queryId)
    const tables = [...(query.table ? [query.table] : []), ...(query.from?.froms ?? [])]
    return { ...query, joins: this.#joined(query.joins), where: this.#filtered(query.where, tables) }
  }

  protected override transformDeleteQuery(node: DeleteQueryNode, queryId?: QueryId): DeleteQueryNode {
    const query = super.transformDeleteQuery(node, queryId)
    const tables = [...query.from.froms, ...(query.using?.tables ?? [])]
    return { ...query, joins: this.#joined(query.joins), where: this.#filtered(query.where, tables) }
  }

  protected override transformInsertQuery(node: InsertQueryNode, queryId?: QueryId): InsertQueryNode {
    const query = super.transformInsertQuery(node, queryId)
    if (!query.into || ownedTableName(query.into) === undefined) return query
    if (query.columns?.some((column) => column.column.name === INSTITUTE_COLUMN)) return query
    if (query.columns && query.values && SelectQueryNode.is(query.values) && !query.values.setOperations) {
      // INSERT ... SELECT (issue 74's isolation walk found every such insert refused): the institute is one more
      // selected value, cast, as a bare parameter in a select list is text on PostgreSQL.
      const institute = RawNode.create(['cast(', ' as integer)'], [ValueNode.create(this.#institute)])
      const selection = SelectionNode.create(AliasNode.create(institute, IdentifierNode.create(INSTITUTE_COLUMN)))
      return {
        ...query,
        columns: [...query.columns, ColumnNode.create(INSTITUTE_COLUMN)],
        values: SelectQueryNode.cloneWithSelections(query.values, [selection]),
      }
    }
    if (!query.columns || !query.values || !ValuesNode.is(query.values)) {
      // An INSERT ... SELECT or DEFAULT VALUES into an institute's table names its institute itself.
      throw new Error(`an insert into ${query.into.table.identifier.name} must name its institute_id`)
    }
    const values = query.values.values.map((row) =>
      PrimitiveValueListNode.is(row)
        ? PrimitiveValueListNode.create([...row.values, this.#institute])
        : ValueListNode.create([...row.values, ValueNode.create(this.#institute)]),
    )
    return {
      ...query,
      columns: [...query.columns, ColumnNode.create(INSTITUTE_COLUMN)],
      values: ValuesNode.create(values),
    }
  }
}
