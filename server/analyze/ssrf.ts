/**
 * Downloads an image from a caller's URL without letting the caller reach the server's own
 * network: only public addresses, every address of the host checked, the connection pinned to
 * the checked address (no second DNS look-up, so DNS rebinding cannot switch it), redirects
 * checked the same way, size and time bounded.
 */
import dns from "node:dns/promises"
import http from "node:http"
import https from "node:https"
import net, { type LookupFunction } from "node:net"

import ipaddr from "ipaddr.js"

import { ApiError } from "../http/errors"
import { imageTooLarge } from "./image"

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

/** The eight 16-bit words of an IPv6 address (zone removed, embedded IPv4 expanded); null when it is not one. */
function ipv6Words(address: string): number[] | null {
  return ipaddr.IPv6.isValid(address) ? ipaddr.IPv6.parse(address).parts : null
}

const wordsToIpv4 = (high: number, low: number) => `${high >>> 8}.${high & 0xff}.${low >>> 8}.${low & 0xff}`

function classifyIpv6(address: string): AddressKind {
  const w = ipv6Words(address)
  if (!w) return "restricted"
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
  switch (net.isIP(address)) {
    case 4:
      return classifyIpv4(address)
    case 6:
      return classifyIpv6(address)
    default:
      return "restricted"
  }
}

export interface ImageFetchOptions {
  /** Tests only: lets http:// and loopback addresses through (never from the environment). */
  allowLoopback: boolean
  /** For the whole download, redirects included. */
  timeoutMs: number
  maxBytes: number
  maxRedirects: number
}

function notAllowed(message: string): ApiError {
  return new ApiError(400, "URL_NOT_ALLOWED", message)
}

function fetchFailed(message: string): ApiError {
  return new ApiError(400, "IMAGE_FETCH_FAILED", message)
}

export interface CheckedTarget {
  url: URL
  /** The checked address the connection must go to. */
  address: string
  family: 4 | 6
}

/** The promise, or a rejection as soon as the signal aborts (a DNS look-up cannot be cancelled). */
function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) return reject(new Error("aborted"))
    const onAbort = () => reject(new Error("aborted"))
    signal.addEventListener("abort", onAbort, { once: true })
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort))
  })
}

/** Parses and checks a URL, resolving its host once and checking every address it has. */
export async function checkImageUrl(
  raw: string,
  options: Pick<ImageFetchOptions, "allowLoopback">,
  signal?: AbortSignal
): Promise<CheckedTarget> {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw notAllowed("The image URL is not a valid URL.")
  }
  const protocols = options.allowLoopback ? ["https:", "http:"] : ["https:"]
  if (!protocols.includes(url.protocol)) throw notAllowed("Only https:// image URLs are allowed.")
  if (url.username || url.password) throw notAllowed("Image URLs must not contain a user name or password.")
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1").replace(/\.$/, "").toLowerCase()
  if (!host) throw notAllowed("The image URL has no host.")

  const acceptable = (kind: AddressKind) => kind === "public" || (kind === "loopback" && options.allowLoopback)
  const refused = () => notAllowed("The image URL points to a private, local or reserved network address.")

  let addresses: Array<{ address: string; family: number }>
  if (net.isIP(host)) {
    addresses = [{ address: host, family: net.isIP(host) }]
  } else {
    // Names that always mean this machine are refused without asking DNS.
    if ((host === "localhost" || host.endsWith(".localhost")) && !options.allowLoopback) throw refused()
    try {
      addresses = await abortable(dns.lookup(host, { all: true, verbatim: true }), signal)
    } catch {
      if (signal?.aborted) throw fetchFailed("The image's server did not answer in time.")
      throw fetchFailed("The image's host could not be found.")
    }
    if (addresses.length === 0) throw fetchFailed("The image's host could not be found.")
  }
  if (!addresses.every((entry) => acceptable(classifyAddress(entry.address)))) throw refused()
  const first = addresses[0]!
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 }
}

/** A DNS look-up that answers only the address already checked. */
function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  return ((_hostname: string, lookupOptions: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (lookupOptions?.all) callback(null, [{ address, family }])
    else callback(null, address, family)
  }) as LookupFunction
}

interface Hop {
  status: number
  location: string | undefined
  body: Buffer | null
}

function requestOnce(target: CheckedTarget, options: ImageFetchOptions, signal: AbortSignal): Promise<Hop> {
  return new Promise<Hop>((resolve, reject) => {
    const { url } = target
    const client = url.protocol === "https:" ? https : http
    const request = client.request(
      {
        protocol: url.protocol,
        hostname: url.hostname.replace(/^\[(.*)\]$/, "$1"),
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: "GET",
        headers: { "user-agent": "ImageQueryAI/1.0 (image fetch)", accept: "image/*", "accept-encoding": "identity" },
        lookup: pinnedLookup(target.address, target.family),
        agent: false,
        signal
      },
      (response) => {
        const status = response.statusCode ?? 0
        if (status >= 300 && status < 400) {
          response.resume()
          resolve({ status, location: response.headers.location, body: null })
          return
        }
        if (status !== 200) {
          response.resume()
          resolve({ status, location: undefined, body: null })
          return
        }
        const declared = Number(response.headers["content-length"])
        if (Number.isFinite(declared) && declared > options.maxBytes) {
          reject(imageTooLarge(options.maxBytes))
          response.destroy()
          return
        }
        const chunks: Buffer[] = []
        let size = 0
        response.on("data", (chunk: Buffer) => {
          size += chunk.length
          if (size > options.maxBytes) {
            // Rejected first: destroying emits "aborted" at once.
            reject(imageTooLarge(options.maxBytes))
            response.destroy()
            return
          }
          chunks.push(chunk)
        })
        response.on("end", () => resolve({ status, location: undefined, body: Buffer.concat(chunks) }))
        response.on("error", reject)
        response.on("aborted", () => reject(new Error("aborted")))
      }
    )
    request.on("error", reject)
    request.end()
  })
}

/** Downloads the image at a caller's URL under the rules above; the bytes still need their type checked. */
export async function fetchImageBytes(raw: string, options: ImageFetchOptions): Promise<Buffer> {
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(), options.timeoutMs)
  try {
    let current = raw
    for (let redirects = 0; ; redirects++) {
      const target = await checkImageUrl(current, options, controller.signal)
      let hop: Hop
      try {
        hop = await requestOnce(target, options, controller.signal)
      } catch (error) {
        if (error instanceof ApiError) throw error
        if (controller.signal.aborted) throw fetchFailed("The image's server did not answer in time.")
        throw fetchFailed("The image could not be downloaded.")
      }
      if (hop.body) return hop.body
      if (hop.status >= 300 && hop.status < 400 && hop.location) {
        if (redirects >= options.maxRedirects) throw fetchFailed("The image URL redirects too many times.")
        current = new URL(hop.location, target.url).toString()
        continue
      }
      throw fetchFailed(`The image could not be downloaded: its server answered HTTP ${hop.status}.`)
    }
  } finally {
    clearTimeout(timer)
  }
}
