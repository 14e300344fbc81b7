// The pieces every admin screen is built from. One module on purpose: every admin route imports it, so it shares
// the admin's chunk instead of adding chunks whose names the first screen's preload map would carry.
import type { UseQueryResult } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { Alert } from '../../components/ui/alert'
import { Loading } from '../../components/ui/loading'
import { Pager } from '../../components/ui/pager'
import type { Bilingual } from '@quiz/contracts'
import { useBilingualLang, useLanguage } from '../../i18n/use-bilingual'
import { formatNumber } from '../../lib/format'
import { Button } from '../../components/ui/button'

/** A screen's texts of one section of its namespace, e.g. `(key) => t(\`learners.${key}\`)`. */
export type SectionText<Key extends string> = (key: Key, values?: Record<string, string>) => string

export type StateKey = 'loading' | 'load_failed' | 'empty'

interface QueryStatesProps<Data> {
  query: UseQueryResult<Data>
  isEmpty: (data: Data) => boolean
  text: SectionText<StateKey>
  children: (data: Data) => ReactNode
}

/** Loading, failed, nothing yet, or the data: the states every admin list and report goes through, in that order. */
export function QueryStates<Data>({ query, isEmpty, text, children }: QueryStatesProps<Data>) {
  if (query.isPending) return <Loading label={text('loading')} />
  if (query.isError) return <Alert kind="error">{text('load_failed')}</Alert>
  if (isEmpty(query.data)) return <p className="card admin-empty">{text('empty')}</p>
  return children(query.data)
}

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
  /** The table's name, for its scrolling region. */
  label: string
  children: (row: Row) => ReactNode
}

/**
 * A table that may be wider than a phone scrolls inside this region, never the page: the keyboard can reach it (to
 * scroll it with the arrow keys) and a screen reader names it.
 */
export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  return (
    // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling region must be reachable by keyboard (WCAG 2.1.1)
    <div className="admin-table-wrap" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  )
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
  label,
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
            <TableScroll label={label}>
              <table className={className ? `admin-table ${className}` : 'admin-table'}>
                <TableHead columns={columns} />
                <tbody>{data.results.map(children)}</tbody>
              </table>
            </TableScroll>
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

interface SubmitButtonProps {
  /** The form is being sent: the button is disabled, and says `busy` when given. */
  pending: boolean
  busy?: ReactNode
  disabled?: boolean
  children: ReactNode
}

/** A form's primary button, which cannot send the form twice. */
export function SubmitButton({ pending, busy, disabled, children }: SubmitButtonProps) {
  return (
    <Button type="submit" variant="primary" disabled={pending || disabled}>
      {pending && busy ? busy : children}
    </Button>
  )
}

/** The quizzes as a select's options, each title in the page's language or marked with the one it falls back to. */
export function QuizOptions({ quizzes }: { quizzes: readonly { id: number; title: Bilingual }[] | undefined }) {
  const pickLang = useBilingualLang()
  return quizzes?.map((quiz) => {
    const title = pickLang(quiz.title)
    return (
      <option key={quiz.id} value={quiz.id} lang={title.lang}>
        {title.text}
      </option>
    )
  })
}
