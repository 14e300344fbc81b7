import { BlockList, isIP } from 'node:net'
import { lookup } from 'node:dns/promises'
import type { LookupFunction } from 'node:net'
import dns from 'node:dns'
import { notificationMessages } from '@quiz/contracts'

export interface EndpointRules {
  allowInsecure: boolean
  /** Production: no endpoint at a private, local or reserved address, so a learner cannot aim our pushes inward. */
  refusePrivate: boolean
}

const local = new BlockList()
local.addSubnet('127.0.0.0', 8, 'ipv4')
local.addSubnet('0.0.0.0', 8, 'ipv4')
local.addAddress('::1', 'ipv6')
local.addAddress('::', 'ipv6')

// Every IPv4 range IANA sets apart from the public internet (private, CGNAT, link-local, TEST-NET, multicast...).
const privateRanges = new BlockList()
for (const [net, bits] of [
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 3],
] as const)
  privateRanges.addSubnet(net, bits, 'ipv4')
// IPv6: global unicast only, less what tunnels to or stands for other addresses (NAT64, Teredo, 6to4) and docs.
const globalUnicast = new BlockList()
globalUnicast.addSubnet('2000::', 3, 'ipv6')
for (const [net, bits] of [
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['3fff::', 20],
] as const)
  privateRanges.addSubnet(net, bits, 'ipv6')

const family = (address: string) => (isIP(address) === 6 ? 'ipv6' : 'ipv4')

/** An IPv4 address written as IPv6 (::ffff:10.0.0.1) is checked as the IPv4 address it is. */
const unmapped = (address: string) => address.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, '$1')

export function isLocalAddress(address: string) {
  const a = unmapped(address)
  return local.check(a, family(a))
}

export function isPrivateAddress(address: string) {
  const a = unmapped(address)
  if (isLocalAddress(a)) return true
  if (family(a) === 'ipv6' && !globalUnicast.check(a, 'ipv6')) return true
  return privateRanges.check(a, family(a))
}

const isLocalName = (host: string) => host === 'localhost' || host.endsWith('.localhost')

const hostOf = (url: URL) =>
  url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase()

// Resolved only when private addresses are refused; the sender checks every address again (`guardedLookup`).
export async function endpointProblem(endpoint: string, rules: EndpointRules): Promise<string | null> {
  let url: URL
  try {
    url = new URL(endpoint)
  } catch {
    return notificationMessages.endpointUrl
  }
  if (url.protocol !== 'https:' && !(rules.allowInsecure && url.protocol === 'http:'))
    return url.protocol === 'http:' ? notificationMessages.endpointInsecure : notificationMessages.endpointUrl
  if (url.username || url.password) return notificationMessages.endpointUrl
  const host = hostOf(url)
  const literal = isIP(host) !== 0
  if (!rules.allowInsecure && (isLocalName(host) || (literal && isLocalAddress(host))))
    return notificationMessages.endpointPrivate
  if (!rules.refusePrivate) return null
  // Push services listen on 443; another port is a way to reach some other service on a public host.
  if (url.port !== '' && url.port !== '443') return notificationMessages.endpointPort
  if (isLocalName(host) || (literal && isPrivateAddress(host))) return notificationMessages.endpointPrivate
  if (!literal) {
    const addresses = await lookup(host, { all: true }).catch(() => null)
    if (!addresses || addresses.length === 0) return notificationMessages.endpointUnknownHost
    if (addresses.some(({ address }) => isPrivateAddress(address))) return notificationMessages.endpointPrivate
  }
  return null
}

export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 0)
    const allowed = addresses.filter(({ address }) => !isPrivateAddress(address))
    if (allowed.length === 0)
      return callback(
        Object.assign(new Error(`${hostname} resolves to a private address`), { code: 'EPRIVATE' }),
        '',
        0,
      )
    if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, allowed)
    callback(null, allowed[0]!.address, allowed[0]!.family)
  })
}
