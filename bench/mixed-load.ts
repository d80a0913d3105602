// A mixed load on loopback, as a day of use looks to the API: sign-ins, status checks, the admin's feedback list,
// usage reads and questions to a vision model (a stand-in answering at once). Measured against the embedded database
// (one instance, as `npm start` runs) and against PostgreSQL with two instances on one database (limits shared in
// it), each at zero errors expected. The PostgreSQL run needs TEST_DATABASE_URL (bash scripts/test-postgres.sh).
// Alone: node --import tsx bench/mixed-load.ts
import fs from "node:fs/promises"
import http from "node:http"
import type net from "node:net"
import os from "node:os"
import path from "node:path"

import autocannon, { type RequestParams } from "autocannon"

import { TEST_CARD_SUCCEEDS } from "../src/core/billing/billing"
import { verificationCode } from "../tests/outbox"
import { createDatabase, databaseUrl, dropDatabase, freshDatabaseName, postgresUnavailableReason, TEST_DATABASE_URL_VARIABLE } from "../tests/setup/postgres-databases"
import { runIfMain } from "./figures"
import { nextClientAddress, type LoadFigures } from "./load"
import { startServer, type RunningServer } from "./server-process"

export const PASSWORD = "Granite-Orbit-2026!"
const ADMIN = { email: "mixed-admin@example.com", password: PASSWORD }
/** Sign-in checks of one address run at most rateLimitAttempts (5) at once: the sign-ins rotate over enough accounts to stay below. */
const SIGN_IN_ACCOUNTS = 50
const PNG_DATA_URL =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="

export interface MixedLoadSettings {
  durationSeconds: number
  /** In all; split evenly between the instances. */
  connections: number
}

export type MixedFigures = Omit<LoadFigures, "timeouts"> & { instances: number }

/** An OpenAI-compatible server that answers every chat completion at once. */
async function startModelStandIn(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((request, response) => {
    request.resume()
    request.on("end", () => {
      response.writeHead(200, { "content-type": "application/json" })
      response.end(JSON.stringify({ id: "bench", object: "chat.completion", model: "gpt-4o-mini", choices: [{ index: 0, message: { role: "assistant", content: "A small square." }, finish_reason: "stop" }] }))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return { url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/v1`, close: () => new Promise((resolve) => server.close(() => resolve())) }
}

export async function post(baseUrl: string, pathname: string, body: unknown, token?: string) {
  const response = await fetch(baseUrl + pathname, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": nextClientAddress(), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body)
  })
  const answer = (await response.json()) as { data?: Record<string, unknown>; error?: { message: string } }
  if (!response.ok) throw new Error(`${pathname} answered ${response.status}: ${answer.error?.message}`)
  return answer.data!
}

/** A verified account, made through the API; its verification e-mail is read from the outbox folders (any instance may send it). */
export async function verifiedAccount(baseUrl: string, dataDirs: string[], email: string): Promise<string> {
  await post(baseUrl, "/api/auth/register", { email, password: PASSWORD, name: "Bench User", termsAccepted: true, privacyPolicyAccepted: true })
  await post(baseUrl, "/api/auth/verify-email", { oobCode: await verificationCode(dataDirs, email) })
  return (await post(baseUrl, "/api/auth/login", { email, password: PASSWORD })).token as string
}

/** Pays for Pro in the server's test mode, with Stripe's test card. */
export async function subscribeToPro(baseUrl: string, token: string, email: string): Promise<void> {
  const expiryYear = String(new Date().getFullYear() + 2)
  const card = { cardNumber: TEST_CARD_SUCCEEDS, expiryMonth: "12", expiryYear, cvc: "123", cardholderName: "Bench User" }
  await post(baseUrl, "/api/billing/test-payment", { planId: "pro", annual: false, ...card, email, billingAddress: "1 Main Street", country: "US" }, token)
}

/** The five kinds of request, in turn on every connection; each from its own client address. */
function mixedRequests(tokens: { admin: string; pro: string[] }, signIns: { email: string; password: string }[]) {
  let signInCounter = 0
  let askerCounter = 0
  const json = { "content-type": "application/json" }
  const from = (request: RequestParams): RequestParams => ({ ...request, headers: { ...request.headers, "x-forwarded-for": nextClientAddress() } })
  return [
    { method: "GET", path: "/api/status", setupRequest: from },
    {
      method: "POST",
      path: "/api/auth/login",
      headers: json,
      setupRequest: (request: RequestParams) => from({ ...request, body: JSON.stringify(signIns[signInCounter++ % signIns.length]) })
    },
    { method: "GET", path: "/api/feedback?pageSize=20", headers: { authorization: `Bearer ${tokens.admin}` }, setupRequest: from },
    { method: "GET", path: "/api/analyze/usage", headers: { authorization: `Bearer ${tokens.pro[0]}` }, setupRequest: from },
    {
      method: "POST",
      path: "/api/analyze/ask",
      headers: json,
      body: JSON.stringify({ image: { dataUrl: PNG_DATA_URL }, question: "What is in this image?" }),
      // An account has at most MAX_MODEL_CALLS_IN_FLIGHT questions running: each connection asks as a Pro account of its own.
      setupRequest: (request: RequestParams, context: { asker?: unknown }) => {
        context.asker ??= tokens.pro[askerCounter++ % tokens.pro.length]
        return from({ ...request, headers: { ...request.headers, authorization: `Bearer ${String(context.asker)}` } })
      }
    }
  ]
}

/** Starts `count` instances on one database, prepares the accounts through the first, then loads them all at once. */
async function measureSetup(count: number, settings: MixedLoadSettings, databaseUrlOrNull: string | null): Promise<MixedFigures> {
  const model = await startModelStandIn()
  const dataDirs = await Promise.all(Array.from({ length: count }, () => fs.mkdtemp(path.join(os.tmpdir(), "iqa-mixed-"))))
  const servers: RunningServer[] = []
  try {
    const env = {
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      TRUST_PROXY: "1",
      OPENAI_API_KEY: "sk-bench",
      OPENAI_BASE_URL: model.url,
      ...(databaseUrlOrNull ? { DATABASE_URL: databaseUrlOrNull } : {})
    }
    // One after another: the first applies the migrations.
    for (const dataDir of dataDirs) servers.push(await startServer(dataDir, env))
    const first = servers[0]!.baseUrl
    const admin = (await post(first, "/api/auth/login", ADMIN)).token as string
    const pro: string[] = []
    for (let index = 0; index < settings.connections; index++) {
      const email = `mixed-pro${index}@example.com`
      const token = await verifiedAccount(first, dataDirs, email)
      await subscribeToPro(first, token, email)
      pro.push(token)
    }
    const signIns = [ADMIN]
    for (let index = 1; index < SIGN_IN_ACCOUNTS; index++) {
      const email = `mixed-signin${index}@example.com`
      await verifiedAccount(first, dataDirs, email)
      signIns.push({ email, password: PASSWORD })
    }

    const perInstance = Math.max(1, Math.round(settings.connections / count))
    const results = await Promise.all(
      servers.map((server) =>
        autocannon({
          url: server.baseUrl,
          connections: perInstance,
          duration: settings.durationSeconds,
          timeout: 10,
          warmup: { connections: perInstance, duration: 1 },
          requests: mixedRequests({ admin, pro }, signIns)
        })
      )
    )
    return {
      instances: count,
      requestsPerSecond: results.reduce((sum, result) => sum + result.requests.average, 0),
      latencyP50Ms: Math.max(...results.map((result) => result.latency.p50)),
      latencyP99Ms: Math.max(...results.map((result) => result.latency.p99)),
      requests: results.reduce((sum, result) => sum + result.requests.total, 0),
      non2xx: results.reduce((sum, result) => sum + result.non2xx, 0),
      errors: results.reduce((sum, result) => sum + result.errors, 0)
    }
  } finally {
    for (const server of servers) await server.stop().catch(() => server.kill())
    await model.close()
    for (const dataDir of dataDirs) await fs.rm(dataDir, { recursive: true, force: true })
  }
}

function line(label: string, figures: MixedFigures, settings: MixedLoadSettings): string {
  return (
    `Mixed load, ${label}: ${Math.round(figures.requestsPerSecond)} req/s, latency p50 ${figures.latencyP50Ms} ms, p99 ${figures.latencyP99Ms} ms ` +
    `(${figures.requests} requests in ${settings.durationSeconds} s over ${settings.connections} connections; ${figures.non2xx} non-2xx, ${figures.errors} errors)`
  )
}

export async function measureMixedLoad(settings: MixedLoadSettings) {
  console.error(`Mixed load on the embedded database, one instance, ${settings.durationSeconds} s…`)
  const embedded = await measureSetup(1, settings, null)
  const adminUrl = process.env[TEST_DATABASE_URL_VARIABLE]
  const unavailable = await postgresUnavailableReason(adminUrl)
  let postgres: MixedFigures | null = null
  if (!unavailable) {
    const name = freshDatabaseName("iqa_bench")
    await createDatabase(adminUrl!, name)
    try {
      console.error(`Mixed load on PostgreSQL, two instances, ${settings.durationSeconds} s…`)
      postgres = await measureSetup(2, settings, databaseUrl(adminUrl!, name))
    } finally {
      await dropDatabase(adminUrl!, name)
    }
  }
  const warnings = [embedded, postgres]
    .filter((figures): figures is MixedFigures => figures !== null && (figures.non2xx > 0 || figures.errors > 0))
    .map((figures) => `WARNING: the mixed load on ${figures.instances} instance(s) had ${figures.non2xx} non-2xx responses and ${figures.errors} errors; expected 0.`)
  return {
    figures: { embedded, postgres, postgresSkipped: unavailable },
    lines: [
      line("embedded database, 1 instance", embedded, settings),
      postgres ? line("PostgreSQL, 2 instances", postgres, settings) : `Mixed load, PostgreSQL, 2 instances: skipped (${unavailable})`,
      ...warnings
    ]
  }
}

runIfMain(import.meta.url, "mixed load", () => measureMixedLoad({ durationSeconds: 10, connections: 20 }))
