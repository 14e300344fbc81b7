import { useParams } from 'react-router'
import type { RouteParam } from './paths'

// Apart from paths.ts: every screen imports paths, so what is here would ride in the first screen's chunk.

/** The largest id the database hands out (a PostgreSQL integer). */
const MAX_ID = 2_147_483_647

/** An id written in a URL, or null when it is not a positive 32-bit integer ("7", never "7x", "-7" or "1e3"). */
export function parseId(value: string | null | undefined): number | null {
  if (!value || !/^\d+$/.test(value)) return null
  const id = Number(value)
  return id > 0 && id <= MAX_ID ? id : null
}

/** The route's `:name` parameter as an id (parseId): every page reads its ids this one way. */
export function useRouteId(name: RouteParam): number | null {
  return parseId(useParams()[name])
}
