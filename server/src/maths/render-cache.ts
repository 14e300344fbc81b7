// Bounded by characters, not count: one formula can render to 200,000 characters (docs/decisions/047).
export function createRenderCache<T>({ maxChars, weigh }: { maxChars: number; weigh: (value: T) => number }) {
  const entries = new Map<string, { value: T; weight: number }>()
  let chars = 0

  function get(source: string): T | undefined {
    const entry = entries.get(source)
    if (!entry) return undefined
    entries.delete(source)
    entries.set(source, entry)
    return entry.value
  }

  // Pass flat strings (flatString): the cache must hold what its accounting counts.
  function set(source: string, value: T) {
    const weight = ENTRY_OVERHEAD + source.length + weigh(value)
    const old = entries.get(source)
    if (old) {
      entries.delete(source)
      chars -= old.weight
    }
    if (weight > maxChars) return
    entries.set(source, { value, weight })
    chars += weight
    for (const [key, entry] of entries) {
      if (chars <= maxChars) break
      entries.delete(key)
      chars -= entry.weight
    }
  }

  return { get, set, size: () => ({ entries: entries.size, chars }), clear: () => (entries.clear(), (chars = 0)) }
}

// The map entry, its key and value objects: about what 64 characters of string take.
const ENTRY_OVERHEAD = 64

// `+=` strings are trees and slices keep parents: a `\ce{}` took ten times its flat size (docs/performance.md).
export const flatString = (text: string) => Buffer.from(text, 'utf16le').toString('utf16le')
