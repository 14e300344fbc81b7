// Read at every start of the app, before any of the written answers' code is loaded: kept tiny on purpose.

const prefix = 'quiz-written:'

/** Attempts handed in on this device whose written answers still have photos waiting to be sent. */
export function writtenAttemptsHandedIn(storage: Storage): number[] {
  const found: number[] = []
  try {
    for (let index = 0; index < storage.length; index += 1) {
      const key = storage.key(index)
      if (!key?.startsWith(prefix)) continue
      const stored = JSON.parse(storage.getItem(key) ?? 'null') as {
        handedIn?: boolean
        closed?: boolean
        pages?: Record<string, { page: unknown; refusal: unknown }[]>
      } | null
      const waiting = Object.values(stored?.pages ?? {}).some((list) =>
        list.some((entry) => entry.page === null && entry.refusal === null),
      )
      if (stored?.handedIn && !stored.closed && waiting) found.push(Number(key.slice(prefix.length)))
    }
  } catch {
    // Storage unavailable or unreadable: nothing to resume.
  }
  return found
}
