import type { ReactNode } from 'react'

interface ScrollingTableProps {
  /** The block's class: it scrolls sideways where the table is wider than the screen. */
  wrapClassName: string
  tableClassName: string
  /** The heading that names the table. */
  labelledBy: string
  columns: string[]
  /** The body's rows. */
  children: ReactNode
}

/** A learner's table of sections, with its column headings, in a block that scrolls sideways on a narrow screen. */
export function ScrollingTable({ wrapClassName, tableClassName, labelledBy, columns, children }: ScrollingTableProps) {
  return (
    // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling block must take focus to scroll by keyboard (axe scrollable-region-focusable)
    <div className={wrapClassName} tabIndex={0} role="group" aria-labelledby={labelledBy}>
      <table className={tableClassName}>
        <ColumnHeads columns={columns} />
        <tbody>{children}</tbody>
      </table>
    </div>
  )
}

/** A table's head: one row of column headings. */
export function ColumnHeads({ columns }: { columns: readonly ReactNode[] }) {
  return (
    <thead>
      <tr>
        {columns.map((column, index) => (
          <th key={index} scope="col">
            {column}
          </th>
        ))}
      </tr>
    </thead>
  )
}
