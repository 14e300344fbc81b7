import type { UseQueryResult } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { Pager } from '../../components/ui/pager'
import { useLanguage } from '../../i18n/use-bilingual'
import { formatNumber } from '../../lib/format'
import { QueryStates, type SectionText, type StateKey } from './query-states'

export interface Column {
  label: ReactNode
  /** Figures are right-aligned, header and cells alike. */
  numeric?: boolean
}

/** A table's header row: every cell a column header, numeric ones aligned with their figures. */
export function TableHead({ columns }: { columns: readonly Column[] }) {
  return (
    <thead>
      <tr>
        {columns.map(({ label, numeric }, index) => (
          <th key={index} scope="col" className={numeric ? 'admin-num' : undefined}>
            {label}
          </th>
        ))}
      </tr>
    </thead>
  )
}

interface PagedTableProps<Row> {
  query: UseQueryResult<{ count: number; results: Row[] }>
  pageSize: number
  page: number
  onPage: (page: number) => void
  /** The section's `loading`, `load_failed`, `empty`, `total` ({{total}}), `previous`, `next` and `page` texts. */
  text: SectionText<StateKey | 'total' | 'previous' | 'next' | 'page'>
  columns: readonly Column[]
  className?: string
  children: (row: Row) => ReactNode
}

/** An admin's long list, a page at a time: its total, the table, and Previous / Next. */
export function PagedTable<Row>({
  query,
  pageSize,
  page,
  onPage,
  text,
  columns,
  className,
  children,
}: PagedTableProps<Row>) {
  const language = useLanguage()
  const n = (value: number) => formatNumber(value, language, { useGrouping: false })
  return (
    <QueryStates query={query} isEmpty={(data) => data.count === 0} text={text}>
      {(data) => {
        const pages = Math.max(1, Math.ceil(data.count / pageSize))
        return (
          <>
            <p className="muted">{text('total', { total: n(data.count) })}</p>
            <div className="admin-table-wrap">
              <table className={className ? `admin-table ${className}` : 'admin-table'}>
                <TableHead columns={columns} />
                <tbody>{data.results.map(children)}</tbody>
              </table>
            </div>
            <Pager
              page={page}
              pages={pages}
              onPage={onPage}
              previous={text('previous')}
              next={text('next')}
              label={text('page', { page: n(page), pages: n(pages) })}
            />
          </>
        )
      }}
    </QueryStates>
  )
}
