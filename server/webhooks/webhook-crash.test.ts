/**
 * Nothing promised is lost: API keys are made (each queues api_key.created in its transaction), the receiver holds
 * the first deliveries unanswered, and the server is SIGKILLed while it waits for them (the others not yet sent). Once
 * restarted on the same data (the embedded database in DATA_DIR, or PostgreSQL), every event reaches the receiver and
 * is answered 200 exactly once: the same webhook-id as before the crash, signed with the endpoint's secret.
 */
import fs from "node:fs/promises"

import { afterAll, beforeAll, expect, it } from "vitest"

import { TEST_CARD_SUCCEEDS } from "~core/billing/billing"

import { startSmtpStandIn, type SmtpStandIn } from "../../tests/smtp-stand-in"
import { copyPostgresTemplate, makeTempDir, spawnServer, type SpawnedServer } from "../test-kit"
import { startReceiver, verified, type Receiver } from "./webhook-test-kit"

const PASSWORD = "Copper-Kettle-37!"
const KEYS = 4
const IP = "198.51.100.7"

let smtp: SmtpStandIn
let receiver: Receiver
let holding = true
const arrived: string[] = []

beforeAll(async () => {
  smtp = await startSmtpStandIn({})
  // While holding, a delivery arrives and is never answered: the server dies waiting for it.
  receiver = await startReceiver((entry) => {
    arrived.push(entry.id)
    return holding ? new Promise<number>(() => {}) : 200
  })
})
afterAll(async () => {
  await receiver.close()
  await smtp.close()
})

async function send(server: SpawnedServer, method: string, path: string, body: unknown, token?: string) {
  const headers = { "content-type": "application/json", "x-forwarded-for": IP, ...(token ? { authorization: `Bearer ${token}` } : {}) }
  const response = await fetch(server.url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
  return { status: response.status, body: (await response.json()) as { data: Record<string, unknown> } }
}

async function waitFor<T>(read: () => T | undefined, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = read()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** A verified Pro account made through the server; its session token. */
async function proAccount(server: SpawnedServer, email: string): Promise<string> {
  expect((await send(server, "POST", "/api/auth/register", { email, password: PASSWORD, name: "Hook Crash", termsAccepted: true, privacyPolicyAccepted: true })).status).toBe(201)
  const mail = await waitFor(() => smtp.received.find((message) => message.to[0] === email && /Subject: Verify/.test(message.data)), "the verification e-mail")
  const link = /https?:\/\/\S+/.exec(mail.data.replace(/=\r?\n/g, "").replace(/=3D/g, "="))![0]
  expect((await send(server, "POST", "/api/auth/verify-email", { oobCode: new URL(link).searchParams.get("oobCode") })).status).toBe(200)
  const token = (await send(server, "POST", "/api/auth/login", { email, password: PASSWORD })).body.data.token as string
  const card = { planId: "pro", annual: false, cardNumber: TEST_CARD_SUCCEEDS, expiryMonth: "12", expiryYear: String(new Date().getFullYear() + 2), cvc: "123", cardholderName: "Hook Crash", email, billingAddress: "1 Main Street", country: "US" }
  expect((await send(server, "POST", "/api/billing/test-payment", card, token)).status).toBe(201)
  return token
}

it(`delivers all ${KEYS} events acknowledged before a SIGKILL exactly once after the restart`, async () => {
  const postgres = await copyPostgresTemplate()
  const dataDir = await makeTempDir("iqa-webhook-crash-")
  const env = { DATA_DIR: dataDir, TRUST_PROXY: "1", SMTP_URL: smtp.url, WEBHOOKS_ALLOW_LOOPBACK: "true", ...(postgres ? { DATABASE_URL: postgres.url } : {}) }
  let server = await spawnServer(env)
  try {
    const token = await proAccount(server, "hooks@example.com")
    const hook = await send(server, "POST", "/api/webhooks", { url: receiver.url, events: ["api_key.created"] }, token)
    expect(hook.status).toBe(201)
    const secret = hook.body.data.secret as string
    for (let index = 0; index < KEYS; index++) {
      expect((await send(server, "POST", "/api/keys", { name: `key ${index}`, currentPassword: PASSWORD }, token)).status).toBe(201)
    }
    // The first deliveries are held by the receiver (two at most per account in flight); the server dies meanwhile.
    await waitFor(() => (arrived.length >= 1 ? true : undefined), "a delivery to arrive")
    server.child.kill("SIGKILL")
    await server.exited
    expect(receiver.delivered()).toEqual([])
    const heldIds = new Set(arrived)

    holding = false
    server = await spawnServer(env)
    await waitFor(() => (receiver.delivered().length >= KEYS ? true : undefined), `${KEYS} deliveries`, 60_000)
    // Time for a duplicate to show, had any delivery been sent twice.
    await new Promise((resolve) => setTimeout(resolve, 1_500))
    const delivered = receiver.delivered()
    expect(delivered).toHaveLength(KEYS)
    expect(new Set(delivered.map((entry) => entry.id)).size).toBe(KEYS)
    expect(delivered.map((entry) => verified(secret, entry).data.name).sort()).toEqual(Array.from({ length: KEYS }, (_, index) => `key ${index}`))
    // Those held before the crash were sent again with the same webhook-id.
    for (const id of heldIds) expect(delivered.map((entry) => entry.id)).toContain(id)
  } finally {
    server.child.kill("SIGKILL")
    await server.exited
    await postgres?.drop()
    await fs.rm(dataDir, { recursive: true, force: true })
  }
}, 150_000)
