// PostgreSQL cannot store U+0000 in text (SQLite can): refused where input comes in (docs/decisions/091).

export const nulMessage = 'This text holds a NUL character (U+0000), which is not allowed.'

export function pathOfNul(value: unknown, path: (string | number)[] = []): (string | number)[] | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined
  if (typeof value !== 'object' || value === null || ArrayBuffer.isView(value)) return undefined
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = pathOfNul(value[i], [...path, i])
      if (found) return found
    }
    return undefined
  }
  for (const key in value) {
    if (key.includes('\u0000')) return [...path, key]
    const found = pathOfNul((value as Record<string, unknown>)[key], [...path, key])
    if (found) return found
  }
  return undefined
}
