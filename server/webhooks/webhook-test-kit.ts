/**
 * What the webhook API tests share: an app that may send to loopback (WEBHOOKS_ALLOW_LOOPBACK) with short retry
 * timings, a receiver on 127.0.0.1 whose answers each test sets, and the calls. Test-only.
 */
import http from "node:http"
import type { AddressInfo } from "node:net"

import { Webhook } from "standardwebhooks"
import { expect } from "vitest"

import type { CreatedWebhook, WebhookDelivery } from "~core/webhooks"

import type { TestApp } from "../test-kit"
import type { WebhookTimings } from "./webhook-worker"

/** Retries after 50 ms, doubling up to 200 ms; given up after 2 s. */
export const SHORT_TIMINGS: Partial<WebhookTimings> = { pollMs: 50, idlePollMs: 200, leaseMs: 3_000, requestTimeoutMs: 2_000, firstRetryMs: 50, maxRetryMs: 200, giveUpAfterMs: 2_000 }

export interface Received {
  id: string
  timestamp: string
  signature: string
  body: string
  /** What the receiver answered. */
  status: number
}

export type Answer = (received: Omit<Received, "status">) => number | Promise<number>

/** A local receiver: records every request with its headers, answers what `answer` says (200 by default). */
export async function startReceiver(initial: Answer = () => 200) {
  let answer = initial
  const received: Received[] = []
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      const entry = { id: String(request.headers["webhook-id"]), timestamp: String(request.headers["webhook-timestamp"]), signature: String(request.headers["webhook-signature"]), body: Buffer.concat(chunks).toString("utf8") }
      void Promise.resolve(answer(entry)).then((status) => {
        received.push({ ...entry, status })
        response.writeHead(status, { "content-type": "text/plain" }).end("thanks")
      })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    answer(next: Answer) {
      answer = next
    },
    /** The events it answered 2xx, their bodies parsed. */
    delivered: () => received.filter((entry) => entry.status < 300).map((entry) => ({ ...entry, event: JSON.parse(entry.body) as { type: string; timestamp: string; data: Record<string, unknown> } })),
    async close() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  }
}
export type Receiver = Awaited<ReturnType<typeof startReceiver>>

/** Checks a received request's signature as a receiver would, with the standardwebhooks library; answers the event. */
export function verified(secret: string, entry: Omit<Received, "status">) {
  return new Webhook(secret).verify(entry.body, { "webhook-id": entry.id, "webhook-timestamp": entry.timestamp, "webhook-signature": entry.signature }) as { type: string; data: Record<string, unknown> }
}

type Who = { token: string }
type Method = "GET" | "POST" | "DELETE"

export function webhookCalls(subject: () => TestApp) {
  async function call(method: Method, url: string, who: Who, body?: unknown) {
    const response = await subject().app.inject({ method, url, headers: { authorization: `Bearer ${who.token}` }, ...(body === undefined ? {} : { payload: body as object }) })
    return { status: response.statusCode, body: response.json() }
  }
  async function addHook(who: Who, url: string, events: string[]): Promise<CreatedWebhook> {
    const created = await call("POST", "/api/webhooks", who, { url, events })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    return created.body.data as CreatedWebhook
  }
  async function deliveries(who: Who, id: string): Promise<WebhookDelivery[]> {
    const answer = await call("GET", `/api/webhooks/${id}/deliveries`, who)
    expect(answer.status).toBe(200)
    return answer.body.data as WebhookDelivery[]
  }
  /** Waits until `check` holds (the worker runs on its own timers). */
  async function until<T>(read: () => T | Promise<T>, check: (value: T) => boolean, what: string, timeoutMs = 15_000): Promise<T> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const value = await read()
      if (check(value)) return value
      if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}: ${JSON.stringify(value)}`)
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
  }
  return { call, addHook, deliveries, until }
}
