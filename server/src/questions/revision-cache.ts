import type { Kysely } from 'kysely'
import type { DB } from '../db/schema'
import { findRevisions, type RevisionWithOptions } from './question-revisions.repository'

// Revisions are immutable (a key decision writes key_versions): no telling across processes. Bounded by size.
export function createRevisionCache<T>(
  build: (revision: RevisionWithOptions) => T,
  { maxChars }: { maxChars: number },
) {
  const entries = new Map<number, { value: T; weight: number }>()
  let chars = 0

  function remember(revisionId: number, value: T, weight: number) {
    entries.set(revisionId, { value, weight })
    chars += weight
    for (const [id, entry] of entries) {
      if (chars <= maxChars || entries.size === 1) break
      entries.delete(id)
      chars -= entry.weight
    }
  }

  // Pass the transaction when inside one: on SQLite a query on the outer handle would wait for its connection.
  async function get(db: Kysely<DB>, revisionIds: readonly number[]): Promise<T[]> {
    const found = new Map<number, T>()
    const missing: number[] = []
    for (const id of revisionIds) {
      const entry = entries.get(id)
      if (entry) found.set(id, entry.value)
      else missing.push(id)
    }
    if (missing.length > 0) {
      for (const revision of (await findRevisions(db, missing)).values()) {
        const value = build(revision)
        remember(revision.id, value, weightOf(revision))
        found.set(revision.id, value)
      }
    }
    return revisionIds.map((id) => {
      if (!found.has(id)) throw new Error(`question revision ${id} is missing`)
      return found.get(id)!
    })
  }

  return { get }
}

function weightOf(revision: RevisionWithOptions) {
  let weight =
    256 +
    revision.text_en.length +
    revision.text_ne.length +
    (revision.hint_en?.length ?? 0) +
    revision.hint_ne.length +
    (revision.image_svg?.length ?? 0) +
    (revision.maths?.length ?? 0)
  for (const option of revision.options) {
    weight +=
      128 +
      option.text_en.length +
      option.text_ne.length +
      (option.image_svg?.length ?? 0) +
      (option.maths?.length ?? 0)
  }
  return weight
}
