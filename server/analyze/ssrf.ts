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

import { classifyAddress, type AddressKind } from "~core/network-address"

import { ApiError } from "../http/errors"
import { imageTooLarge } from "./image"

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

/** How a refusal names the URL and its failures: the image fetch's words by default; a webhook's have theirs. */
export interface UrlWords {
  /** "image URL", "webhook URL". */
  url: string
  /** The code and words of a host that cannot be found or did not answer. */
  failCode: string
  hostNotFound: string
  tooSlow: string
}

const IMAGE_WORDS: UrlWords = {
  url: "image URL",
  failCode: "IMAGE_FETCH_FAILED",
  hostNotFound: "The image's host could not be found.",
  tooSlow: "The image's server did not answer in time."
}

/**
 * Parses and checks a URL, resolving its host once and checking every address it has: https (and http with
 * `allowLoopback`), no user name or password, every address public (or loopback with `allowLoopback`).
 */
export async function checkPublicUrl(raw: string, options: { allowLoopback: boolean }, signal?: AbortSignal, words: UrlWords = IMAGE_WORDS): Promise<CheckedTarget> {
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

/** An image's URL checked as checkPublicUrl says. */
export function checkImageUrl(raw: string, options: Pick<ImageFetchOptions, "allowLoopback">, signal?: AbortSignal): Promise<CheckedTarget> {
  return checkPublicUrl(raw, options, signal)
}

/** A DNS look-up that answers only the address already checked. */
export function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
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
