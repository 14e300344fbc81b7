import { isIPv6 } from 'node:net'

// Counted per /64 for IPv6, per address for IPv4 (an IPv4-mapped address as its IPv4): docs/decisions/042.
export function clientNetwork(address: string): string {
  const groups = isIPv6(address) ? groupsOf(address) : null
  if (!groups) return address
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff)
    return [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255].join('.')
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`
}

function groupsOf(address: string): number[] | null {
  let text = address.split('%')[0]!.toLowerCase()
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text)
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number]
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const [head, tail] = text.split('::') as [string, string | undefined]
  const parse = (part: string | undefined) => (part ? part.split(':').map((group) => parseInt(group, 16)) : [])
  const before = parse(head)
  const after = parse(tail)
  const groups =
    tail === undefined ? before : [...before, ...Array<number>(8 - before.length - after.length).fill(0), ...after]
  return groups.length === 8 && groups.every((group) => group >= 0 && group <= 0xffff) ? groups : null
}
