/**
 * One attempt of a delivery: the endpoint's URL checked again by the SSRF guard (its host's addresses may have changed
 * since it was added), then a POST pinned to the checked address (server/http/ssrf-guard.ts), signed with this attempt's
 * own timestamp. No redirect is followed (a 3xx is a failed attempt); the answer's body is never read.
 */
import http from "node:http"
import https from "node:https"

import { Webhook } from "standardwebhooks"

import { checkPublicUrl, pinnedLookup, type UrlWords } from "../http/ssrf-guard"

export const WEBHOOK_URL_WORDS: UrlWords = {
  url: "webhook URL",
  failCode: "URL_NOT_ALLOWED",
  hostNotFound: "The webhook URL's host could not be found.",
  tooSlow: "The webhook URL's host could not be looked up in time."
}

export interface Attempt {
  url: string
  /** The endpoint's secret, whsec_…, opened. */
  secret: string
  msgId: string
  payload: string
  at: Date
  allowLoopback: boolean
  timeoutMs: number
}

/** What an attempt came to: the receiver's status code, or why none (never the receiver's words). */
export type AttemptResult = { ok: true; statusCode: number } | { ok: false; statusCode: number | null; error: string }

/** The Standard Webhooks headers of one attempt. */
export function signedHeaders(secret: string, msgId: string, at: Date, payload: string): Record<string, string> {
  return {
    "webhook-id": msgId,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": new Webhook(secret).sign(msgId, at, payload)
  }
}

export async function attemptDelivery(attempt: Attempt): Promise<AttemptResult> {
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(), attempt.timeoutMs)
  try {
    let target
    try {
      target = await checkPublicUrl(attempt.url, { allowLoopback: attempt.allowLoopback }, controller.signal, WEBHOOK_URL_WORDS)
    } catch (error) {
      return { ok: false, statusCode: null, error: (error as { code?: string }).code ?? "URL_NOT_ALLOWED" }
    }
    const statusCode = await new Promise<number>((resolve, reject) => {
      const { url } = target
      const client = url.protocol === "https:" ? https : http
      const body = Buffer.from(attempt.payload)
      const request = client.request(
        {
          protocol: url.protocol,
          hostname: url.hostname.replace(/^\[(.*)\]$/, "$1"),
          port: url.port || undefined,
          path: `${url.pathname}${url.search}`,
          method: "POST",
          headers: {
            "content-type": "application/json",
            "content-length": String(body.length),
            "user-agent": "ImageQueryAI-Webhooks/1.0",
            ...signedHeaders(attempt.secret, attempt.msgId, attempt.at, attempt.payload)
          },
          lookup: pinnedLookup(target.address, target.family),
          agent: false,
          signal: controller.signal
        },
        (response) => {
          // The status code is the answer: the body is never read (a slow or endless one holds nothing up).
          resolve(response.statusCode ?? 0)
          response.destroy()
        }
      )
      request.on("error", reject)
      request.end(body)
    })
    return statusCode >= 200 && statusCode < 300 ? { ok: true, statusCode } : { ok: false, statusCode, error: `HTTP ${statusCode}` }
  } catch (error) {
    if (controller.signal.aborted) return { ok: false, statusCode: null, error: "TIMEOUT" }
    const code = (error as { code?: unknown }).code
    return { ok: false, statusCode: null, error: typeof code === "string" ? code : "NETWORK_ERROR" }
  } finally {
    clearTimeout(timer)
  }
}
