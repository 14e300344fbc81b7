/**
 * A request's host as institutes' hosts are kept: lower-cased, without its port (API.md "Institutes": the port is
 * ignored), an IPv6 address without its brackets. Undefined for no host.
 */
export function normaliseHost(host: string | undefined): string | undefined {
  if (!host) return undefined
  const lower = host.trim().toLowerCase()
  const bracketed = /^\[([0-9a-f:.]+)\](?::\d+)?$/.exec(lower)
  if (bracketed) return bracketed[1]
  const withoutPort = lower.replace(/:\d+$/, '')
  return withoutPort.replace(/\.$/, '') || undefined
}
