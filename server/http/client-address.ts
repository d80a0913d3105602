import net from "node:net"

import ipaddr from "ipaddr.js"

/**
 * Which hops in front of the server may set the client's address (X-Forwarded-For):
 * none, the nearest `hops` proxies, or proxies at these addresses and ranges. Never "every
 * hop": then any client writes its own address and escapes every per-IP limit.
 */
export type ProxyTrust = false | { hops: number } | { addresses: string[] }

/** Names proxy-addr understands for well-known ranges. */
const RANGE_NAMES = new Set(["loopback", "linklocal", "uniquelocal"])

export const MAX_PROXY_HOPS = 10

/** Why one entry of an address list is not an IP address, a CIDR range or a range name; null when it is one. */
export function proxyAddressProblem(entry: string): string | null {
  if (RANGE_NAMES.has(entry)) return null
  const [address, prefix, ...rest] = entry.split("/")
  const version = net.isIP(address ?? "")
  if (!version || rest.length > 0) return `"${entry}" is not an IP address, a CIDR range or one of ${[...RANGE_NAMES].join(", ")}`
  if (prefix === undefined) return null
  const bits = /^\d{1,3}$/.test(prefix) ? Number(prefix) : NaN
  return bits >= 0 && bits <= (version === 4 ? 32 : 128) ? null : `"${entry}" has a prefix length out of range`
}

/**
 * Fastify's trustProxy option for a trust setting. Fastify refuses to trust a bare hop count
 * (it cannot tell a proxy from a client that reached the server directly), so hops become a
 * function of the hop's position: the socket's peer is hop 0. A hop count is only safe when the
 * server cannot be reached except through the proxies; docs/deploy.md and docs/configuration.md say so.
 */
export function fastifyTrustProxy(trust: ProxyTrust): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (trust === false) return false
  if ("addresses" in trust) return trust.addresses
  const { hops } = trust
  return (_address, hop) => hop < hops
}

/**
 * The key per-client limits count by. An IPv6 client gets a whole /64 from its provider (one
 * subnet per household or server), so its addresses count together; an IPv4-mapped IPv6 address
 * counts as the IPv4 address it is.
 */
export function clientAddressKey(ip: string): string {
  if (!net.isIPv6(ip)) return ip
  const groups = ipaddr.IPv6.parse(ip).parts
  const mapped = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff
  if (mapped) return [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255].join(".")
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(":")}::/64`
}
