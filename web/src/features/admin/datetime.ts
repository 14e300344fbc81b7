// Admin date-time pickers (<input type="datetime-local">) show and accept the browser's local time;
// the API speaks ISO 8601 in UTC (WEB.md).

const pad = (value: number, length = 2) => String(value).padStart(length, '0')

/** An ISO timestamp as the value of a datetime-local input in the browser's time zone ("2026-11-22T12:45"); '' for none. */
export function isoToLocalInput(iso: string | null | undefined): string {
  if (!iso) return ''
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return ''
  return `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`
}

const LOCAL_INPUT = /^(\d{4,})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?$/

/** A datetime-local value read as local time, as an ISO timestamp in UTC; null when empty or malformed. */
export function localInputToIso(value: string): string | null {
  const match = LOCAL_INPUT.exec(value.trim())
  if (!match) return null
  const [, year, month, day, hours, minutes, seconds = '0', millis = '0'] = match
  if (Number(hours) > 23 || Number(minutes) > 59 || Number(seconds) > 59) return null
  // setFullYear, unlike the Date constructor, does not read years 0-99 as 1900-1999.
  const date = new Date(0)
  date.setFullYear(Number(year), Number(month) - 1, Number(day))
  date.setHours(Number(hours), Number(minutes), Number(seconds), Number(millis.padEnd(3, '0')))
  // Date rolls impossible dates over (Feb 30 -> Mar 2): refuse them instead.
  if (date.getMonth() !== Number(month) - 1 || date.getDate() !== Number(day)) return null
  return date.toISOString()
}
