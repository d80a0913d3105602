/**
 * Downloads an image from a caller's URL through the SSRF guard (../http/ssrf-guard.ts): the host's addresses checked
 * and the connection pinned to the checked one, redirects checked the same way, size and time bounded; and, for a
 * caller, at most MAX_FAILED_IMAGE_FETCHES downloads failed or running in a window (imageDownloader).
 */
import http from "node:http"
import https from "node:https"

import type { FastifyInstance } from "fastify"

import { ApiError } from "../http/errors"
import { checkPublicUrl, pinnedLookup, type CheckedTarget, type UrlWords } from "../http/ssrf-guard"
import { retryAfterSeconds } from "../limits/limit-store"
import { imageTooLarge } from "./image-checks"

export const DEFAULT_IMAGE_FETCH_TIMEOUT_MS = 10_000
export const MAX_IMAGE_REDIRECTS = 3
/**
 * Failed image URLs per user per window: every download our server attempts for a caller costs us and
 * probes someone else's host, so a caller who keeps naming URLs that fail is stopped for a while.
 */
export const MAX_FAILED_IMAGE_FETCHES = 20
export const FAILED_IMAGE_FETCH_WINDOW_MS = 10 * 60_000

export interface ImageDownloadOptions {
  /** How long downloading an image URL may take, redirects included; 10 s by default. */
  imageFetchTimeoutMs?: number
  /** Tests only (never set from the environment): allow http:// and loopback image URLs. */
  allowLoopbackImageUrls?: boolean
}

export interface ImageFetchOptions {
  /** Tests only: lets http:// and loopback addresses through (never from the environment). */
  allowLoopback: boolean
  /** For the whole download, redirects included. */
  timeoutMs: number
  maxBytes: number
  maxRedirects: number
}

function fetchFailed(message: string): ApiError {
  return new ApiError(400, "IMAGE_FETCH_FAILED", message)
}

const IMAGE_WORDS: UrlWords = {
  url: "image URL",
  failCode: "IMAGE_FETCH_FAILED",
  hostNotFound: "The image's host could not be found.",
  tooSlow: "The image's server did not answer in time."
}

/** An image's URL checked as checkPublicUrl says. */
export function checkImageUrl(raw: string, options: Pick<ImageFetchOptions, "allowLoopback">, signal?: AbortSignal): Promise<CheckedTarget> {
  return checkPublicUrl(raw, options, signal, IMAGE_WORDS)
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

/**
 * A caller's image URL downloaded through the SSRF guard, at most `maxBytes`. The attempt is counted as a failure
 * before it starts, so parallel requests cannot all pass the limit, and taken back once the image arrived: a user
 * has at most MAX_FAILED_IMAGE_FETCHES downloads failed or still running in the window.
 */
export function imageDownloader(app: FastifyInstance, options: ImageDownloadOptions = {}) {
  const timeoutMs = options.imageFetchTimeoutMs ?? DEFAULT_IMAGE_FETCH_TIMEOUT_MS
  const allowLoopback = options.allowLoopbackImageUrls === true
  return async (userId: string, url: string, maxBytes: number): Promise<Buffer> => {
    const failedFetchesKey = `image-fetch-failures:${userId}`
    const reservation = await app.limits.take(failedFetchesKey, MAX_FAILED_IMAGE_FETCHES, FAILED_IMAGE_FETCH_WINDOW_MS, app.clock())
    if (!reservation.taken) {
      const retryAfter = retryAfterSeconds(reservation)
      const minutes = Math.ceil(retryAfter / 60)
      throw new ApiError(
        429,
        "RATE_LIMIT_EXCEEDED",
        `Too many image URLs could not be downloaded (or are still downloading). Please wait ${minutes} minute${minutes === 1 ? "" : "s"} before trying again, or upload the image instead.`,
        { retryAfter }
      )
    }
    const bytes = await fetchImageBytes(url, { allowLoopback, timeoutMs, maxBytes, maxRedirects: MAX_IMAGE_REDIRECTS })
    await app.limits.release(failedFetchesKey)
    return bytes
  }
}
