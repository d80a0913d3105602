/**
 * The real server process, killed with SIGKILL right after the last of a burst of acknowledged registrations and
 * test-mode payments: after a restart on the same DATA_DIR every acknowledged account is there with its password, and
 * every acknowledged subscription with its plan and quota. (Feedback with images: feedback/reliability.test.ts.)
 */
import fs from "node:fs/promises"

import { expect, it } from "vitest"

import { TEST_CARD_SUCCEEDS } from "~core/billing/billing"

import { verificationCode } from "../tests/outbox"
import { copyPostgresTemplate, makeTempDir, spawnServer, type SpawnedServer } from "./test-kit"

const PASSWORD = "Copper-Kettle-37!"
const REGISTRATIONS = 30
const PAYMENTS = 10

async function post(server: SpawnedServer, path: string, body: unknown, init: { ip: string; token?: string }) {
  const response = await fetch(server.url + path, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": init.ip, ...(init.token ? { authorization: `Bearer ${init.token}` } : {}) },
    body: JSON.stringify(body)
  })
  return { status: response.status, body: (await response.json()) as { data?: Record<string, unknown>; error?: { code: string } } }
}

async function get(server: SpawnedServer, path: string, token: string) {
  const response = await fetch(server.url + path, { headers: { authorization: `Bearer ${token}` } })
  return (await response.json()) as { data: Record<string, unknown> }
}

const account = (email: string) => ({ email, password: PASSWORD, name: "Crash Test", termsAccepted: true, privacyPolicyAccepted: true })
const card = { planId: "pro", annual: false, cardNumber: TEST_CARD_SUCCEEDS, expiryMonth: "12", expiryYear: String(new Date().getFullYear() + 2), cvc: "123", cardholderName: "Crash Test", email: "billing@example.com", billingAddress: "1 Main Street", country: "US" }

it(`keeps ${REGISTRATIONS} acknowledged registrations and ${PAYMENTS} acknowledged subscriptions through a SIGKILL`, async () => {
  const dataDir = await makeTempDir("iqa-crash-")
  // The project's database: embedded in DATA_DIR, or in the api-postgres project a PostgreSQL database of its own.
  const postgres = await copyPostgresTemplate()
  const env = { DATA_DIR: dataDir, TRUST_PROXY: "1", ...(postgres ? { DATABASE_URL: postgres.url } : {}) }
  try {
    const first = await spawnServer(env)
    // Verified, signed-in Free accounts that will pay during the burst.
    const payers: { email: string; token: string }[] = []
    for (let index = 0; index < PAYMENTS; index++) {
      const email = `payer${index}@example.com`
      const ip = `198.51.100.${index + 1}`
      expect((await post(first, "/api/auth/register", account(email), { ip })).status).toBe(201)
      expect((await post(first, "/api/auth/verify-email", { oobCode: await verificationCode(dataDir, email) }, { ip })).status).toBe(200)
      const login = await post(first, "/api/auth/login", { email, password: PASSWORD }, { ip })
      payers.push({ email, token: login.body.data!.token as string })
    }

    const [registrations, payments] = await Promise.all([
      Promise.all(Array.from({ length: REGISTRATIONS }, (_, index) => post(first, "/api/auth/register", account(`burst${index}@example.com`), { ip: `203.0.113.${index + 1}` }))),
      Promise.all(payers.map((payer, index) => post(first, "/api/billing/test-payment", card, { ip: `192.0.2.${index + 1}`, token: payer.token })))
    ])
    first.child.kill("SIGKILL")
    await first.exited
    expect(registrations.map((answer) => answer.status)).toEqual(Array(REGISTRATIONS).fill(201))
    expect(payments.map((answer) => answer.status)).toEqual(Array(PAYMENTS).fill(201))

    const second = await spawnServer(env)
    try {
      // Each registered account exists with its password: the right password is told only that the address awaits verification.
      for (let index = 0; index < REGISTRATIONS; index++) {
        const login = await post(second, "/api/auth/login", { email: `burst${index}@example.com`, password: PASSWORD }, { ip: `203.0.113.${index + 1}` })
        expect([login.status, login.body.error?.code]).toEqual([403, "EMAIL_NOT_VERIFIED"])
      }
      // Each acknowledged payment is a Pro subscription with an unlimited quota; the sessions survived too.
      for (const payer of payers) {
        expect((await get(second, "/api/billing/subscription", payer.token)).data).toMatchObject({ plan: "pro", status: "active", interval: "month" })
        expect((await get(second, "/api/analyze/usage", payer.token)).data).toMatchObject({ limit: null })
        expect((await get(second, "/api/auth/profile", payer.token)).data).toMatchObject({ user: { subscription: { plan: { id: "pro" } } } })
      }
    } finally {
      second.child.kill("SIGTERM")
      await second.exited
    }
  } finally {
    await fs.rm(dataDir, { recursive: true, force: true })
    await postgres?.drop()
  }
}, 240_000)
