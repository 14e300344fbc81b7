import { useEffect, useState } from 'react'

/** `value` once it has stayed the same for `delayMs` (SPEC.md: availability is checked 500 ms after typing stops). */
export function useDebouncedValue<T>(value: T, delayMs: number): T {
  const [debounced, setDebounced] = useState(value)
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs)
    return () => clearTimeout(timer)
  }, [value, delayMs])
  return debounced
}
