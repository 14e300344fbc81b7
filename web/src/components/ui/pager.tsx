import { Button } from './button'

interface PagerProps {
  page: number
  pages: number
  onPage: (page: number) => void
  /** The screen's own words: "Previous", "Next" and "Page 2 of 7" in the current language. */
  previous: string
  next: string
  label: string
}

/** Previous / Next around "Page n of m", for the admin's long tables. */
export function Pager({ page, pages, onPage, previous, next, label }: PagerProps) {
  return (
    <div className="actions">
      <Button disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {previous}
      </Button>
      <span>{label}</span>
      <Button disabled={page >= pages} onClick={() => onPage(page + 1)}>
        {next}
      </Button>
    </div>
  )
}
