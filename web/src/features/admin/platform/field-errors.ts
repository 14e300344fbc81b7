import { ApiError } from '../../../api/api-error'

/** The server's first message for a field (`name.en`, `hosts.0`…), a path's children included; null if none. */
export function fieldError(error: unknown, path: string): string | null {
  if (!(error instanceof ApiError) || !error.errors) return null
  for (const [key, messages] of Object.entries(error.errors))
    if ((key === path || key.startsWith(`${path}.`)) && messages[0]) return messages[0]
  return null
}
