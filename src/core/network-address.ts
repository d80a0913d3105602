/**
 * Which network an address or a host name belongs to: the one rule behind the server's image downloads
 * (server/http/ssrf-guard.ts, which resolves names itself) and the extension's refusal to let a public page steer it
 * into the person's own network (src/panel/images/image-address.ts). Only public unicast addresses are "public"; loopback is
 * told apart because the server's tests may allow it.
 */
import ipaddr from "ipaddr.js"

export type AddressKind = "public" | "loopback" | "restricted"

const IPV4_BLOCKED: Array<[string, number]> = [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8], // loopback (answered as "loopback" below)
  ["169.254.0.0", 16], // link-local, cloud metadata
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation
  ["192.88.99.0", 24], // 6to4 relay anycast
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation
  ["203.0.113.0", 24], // documentation
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4] // reserved, broadcast
]

/** Dotted decimal only, as DNS answers and URL hosts (already normalised by the URL parser) write IPv4. */
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/

/** 4 or 6 for an IP address (an IPv6 one without brackets, a zone allowed), else 0, as node:net's isIP answers. */
export function ipVersion(address: string): 0 | 4 | 6 {
  if (IPV4.test(address)) return 4
  return address.includes(":") && ipaddr.IPv6.isValid(address) ? 6 : 0
}

function ipv4Number(address: string): number {
  return address.split(".").reduce((sum, part) => sum * 256 + Number(part), 0)
}

function classifyIpv4(address: string): AddressKind {
  const value = ipv4Number(address)
  if (value >>> 24 === 127) return "loopback"
  for (const [base, prefix] of IPV4_BLOCKED) {
    const size = 2 ** (32 - prefix)
    const start = ipv4Number(base)
    if (value >= start && value < start + size) return "restricted"
  }
  return "public"
}

const wordsToIpv4 = (high: number, low: number) => `${high >>> 8}.${high & 0xff}.${low >>> 8}.${low & 0xff}`

function classifyIpv6(address: string): AddressKind {
  const w = ipaddr.IPv6.parse(address).parts
  const zeros = (from: number, to: number) => w.slice(from, to).every((word) => word === 0)
  if (zeros(0, 7) && w[7] === 1) return "loopback" // ::1
  if (zeros(0, 5) && w[5] === 0xffff) return classifyIpv4(wordsToIpv4(w[6]!, w[7]!)) // IPv4-mapped
  if (zeros(0, 6)) return "restricted" // unspecified, IPv4-compatible (deprecated)
  if (w[0] === 0x64 && w[1] === 0xff9b && zeros(2, 6)) return classifyIpv4(wordsToIpv4(w[6]!, w[7]!)) // NAT64
  if (w[0] === 0x2002) return classifyIpv4(wordsToIpv4(w[1]!, w[2]!)) // 6to4
  if (w[0] === 0x2001 && w[1]! < 0x200) return "restricted" // Teredo, benchmarking, ORCHID and other IETF blocks
  if (w[0] === 0x2001 && w[1] === 0xdb8) return "restricted" // documentation
  // Everything outside global unicast 2000::/3 is refused: fc00::/7 unique-local, fe80::/10
  // link-local, fec0::/10 site-local, ff00::/8 multicast, 100::/64 discard, 64:ff9b:1::/48.
  if ((w[0]! & 0xe000) !== 0x2000) return "restricted"
  return "public"
}

/** Whether an IP address is public, loopback, or otherwise not for callers (private, link-local, reserved…). */
export function classifyAddress(address: string): AddressKind {
  switch (ipVersion(address)) {
    case 4:
      return classifyIpv4(address)
    case 6:
      return classifyIpv6(address)
    default:
      return "restricted"
  }
}

/**
 * Suffixes that only a local network resolves: mDNS (.local), the names RFC 6762 appendix G and RFC 8375 set aside or
 * found in private use (.internal, .intranet, .lan, .home, .home.arpa, .corp, .private, .localdomain).
 */
const LOCAL_SUFFIXES = ["local", "localhost", "internal", "intranet", "lan", "home", "home.arpa", "corp", "private", "localdomain"]

/** A URL's host as a plain name or address: lower case, no brackets around IPv6, no final dot. */
export function plainHost(hostname: string): string {
  return hostname.replace(/^\[(.*)\]$/, "$1").replace(/\.$/, "").toLowerCase()
}

/**
 * Whether a host name means this computer or a local network by itself, whatever DNS says: localhost and
 * *.localhost, a single label (`intranet`, found through the network's search domains), and the local suffixes.
 */
export function isLocalNetworkName(hostname: string): boolean {
  const host = plainHost(hostname)
  if (!host || ipVersion(host)) return false
  if (host === "localhost" || !host.includes(".")) return true
  return LOCAL_SUFFIXES.some((suffix) => host === suffix || host.endsWith(`.${suffix}`))
}

/**
 * What a URL host says of its network without a DNS look-up: "private" (a non-public IP address, or a local name),
 * "public" (a public IP address), or "name" (a DNS name, whose addresses only a look-up tells).
 */
export function hostNetwork(hostname: string): "private" | "public" | "name" {
  const host = plainHost(hostname)
  if (ipVersion(host)) return classifyAddress(host) === "public" ? "public" : "private"
  return isLocalNetworkName(host) ? "private" : "name"
}
