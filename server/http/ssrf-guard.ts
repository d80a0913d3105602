/**
 * The SSRF guard: a URL a caller names is fetched by this server without letting the caller reach the server's own
 * network. Only public addresses (https, no user name or password), every address of the host checked, the
 * connection pinned to the checked address (no second DNS look-up, so DNS rebinding cannot switch it). Used by the
 * image downloads of questions and /api/v1 (image-input/image-download.ts) and by webhook deliveries.
 */
import dns from "node:dns/promises"
import net, { type LookupFunction } from "node:net"

import { classifyAddress, type AddressKind } from "~core/network-address"

import { ApiError } from "./errors"

function notAllowed(message: string): ApiError {
  return new ApiError(400, "URL_NOT_ALLOWED", message)
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

/** How a refusal names the URL and its failures: an image download's words (image-input/image-download.ts), a webhook's. */
export interface UrlWords {
  /** "image URL", "webhook URL". */
  url: string
  /** The code and words of a host that cannot be found or did not answer. */
  failCode: string
  hostNotFound: string
  tooSlow: string
}

/**
 * Parses and checks a URL, resolving its host once and checking every address it has: https (and http with
 * `allowLoopback`), no user name or password, every address public (or loopback with `allowLoopback`).
 */
export async function checkPublicUrl(raw: string, options: { allowLoopback: boolean }, signal: AbortSignal | undefined, words: UrlWords): Promise<CheckedTarget> {
  const Url = words.url.charAt(0).toUpperCase() + words.url.slice(1)
  const failed = (message: string) => new ApiError(400, words.failCode, message)
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw notAllowed(`The ${words.url} is not a valid URL.`)
  }
  const protocols = options.allowLoopback ? ["https:", "http:"] : ["https:"]
  if (!protocols.includes(url.protocol)) throw notAllowed(`Only https:// ${words.url}s are allowed.`)
  if (url.username || url.password) throw notAllowed(`${Url}s must not contain a user name or password.`)
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1").replace(/\.$/, "").toLowerCase()
  if (!host) throw notAllowed(`The ${words.url} has no host.`)

  const acceptable = (kind: AddressKind) => kind === "public" || (kind === "loopback" && options.allowLoopback)
  const refused = () => notAllowed(`The ${words.url} points to a private, local or reserved network address.`)

  let addresses: Array<{ address: string; family: number }>
  if (net.isIP(host)) {
    addresses = [{ address: host, family: net.isIP(host) }]
  } else {
    // Names that always mean this machine are refused without asking DNS.
    if ((host === "localhost" || host.endsWith(".localhost")) && !options.allowLoopback) throw refused()
    try {
      addresses = await abortable(dns.lookup(host, { all: true, verbatim: true }), signal)
    } catch {
      if (signal?.aborted) throw failed(words.tooSlow)
      throw failed(words.hostNotFound)
    }
    if (addresses.length === 0) throw failed(words.hostNotFound)
  }
  if (!addresses.every((entry) => acceptable(classifyAddress(entry.address)))) throw refused()
  const first = addresses[0]!
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 }
}

/** A DNS look-up that answers only the address already checked. */
export function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  return ((_hostname: string, lookupOptions: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (lookupOptions?.all) callback(null, [{ address, family }])
    else callback(null, address, family)
  }) as LookupFunction
}
