/** SPEC.md: the navigator shows 10 question numbers per page. */
export const NAVIGATOR_PAGE_SIZE = 10

export function pageCount(total: number, pageSize = NAVIGATOR_PAGE_SIZE) {
  return Math.max(1, Math.ceil(total / pageSize))
}

/** The page (from 0) that holds question `index` (from 0). */
export function pageOf(index: number, pageSize = NAVIGATOR_PAGE_SIZE) {
  return Math.max(0, Math.floor(index / pageSize))
}

/** The question indexes (from 0) shown on `page`, clamped to the pages that exist. */
export function pageIndexes(page: number, total: number, pageSize = NAVIGATOR_PAGE_SIZE): number[] {
  const last = pageCount(total, pageSize) - 1
  const start = Math.min(Math.max(0, page), last) * pageSize
  const end = Math.min(total, start + pageSize)
  return Array.from({ length: Math.max(0, end - start) }, (_, offset) => start + offset)
}
