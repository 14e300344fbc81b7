import type { ReactNode } from 'react'
import { ColumnHeads } from '../../components/ui/scrolling-table'

interface ChartTableProps {
  caption: string
  headers: readonly ReactNode[]
  /** The rows, one per bar or point of the chart. */
  children: ReactNode
}

/**
 * A chart's figures as a table for screen readers, hidden from sight. A table will not shrink to the 1 px box
 * itself: the wrapper is what hides it.
 */
export function ChartTable({ caption, headers, children }: ChartTableProps) {
  return (
    <div className="visually-hidden">
      <table>
        <caption>{caption}</caption>
        <ColumnHeads columns={headers} />
        <tbody>{children}</tbody>
      </table>
    </div>
  )
}
