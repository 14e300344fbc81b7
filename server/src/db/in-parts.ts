// Far below SQLite's 32,766 and PostgreSQL's 65,535 parameters, and small enough that no statement holds a lock long.
const PART_SIZE = 500

export function inParts<T>(items: readonly T[], size = PART_SIZE): T[][] {
  const parts: T[][] = []
  for (let start = 0; start < items.length; start += size) parts.push(items.slice(start, start + size))
  return parts
}
