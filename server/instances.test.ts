/**
 * Two API processes on one PostgreSQL database behave as one service: what one instance counted (a lockout, an IP's
 * calls, a cooldown, the monthly quota) and what it ended (a session) holds on the other. Only in the api-postgres
 * project: two processes cannot share an embedded database. Neither is given TOKEN_SECRET: they share the key the first
 * one generated into the database.
 */
import fs from "node:fs/promises"

import { afterAll, beforeAll, describe, expect, inject, it } from "vitest"

import { API_KEY_RATE_LIMIT } from "~core/api-keys"
import { TEST_CARD_SUCCEEDS } from "~core/billing/billing"

import { MAX_MODEL_CALLS_IN_FLIGHT } from "./vision-model/vision-model-service"

import { redisUnavailableReason, startRedis } from "../tests/redis-server"
import { mailedLink, verificationCode } from "../tests/outbox"
import {
  completion,
  copyPostgresTemplate,
  makeTempDir,
  PNG_DATA_URL,
  sendJson,
  spawnServer,
  startStandIn,
  type SpawnedServer
} from "./test-kit"

const PASSWORD = "Quiet-Lantern-58!"
const SITE_ADMIN = { email: "pair.admin@example.com", password: "Amber-Falcon-27!" }
const onPostgres = inject("postgresTemplate") !== null
if (!onPostgres) console.warn("Two-instance tests skipped in the embedded project: they need PostgreSQL (the api-postgres project).")
const redisSkip = onPostgres ? redisUnavailableReason() : null

let ipCounter = 0
/** A client address of its own per scenario: the instances trust one proxy, as they would behind a load balancer. */
const newIp = () => `198.51.100.${++ipCounter}`

interface Answer {
  status: number
  body: { data?: Record<string, unknown>; error?: { code: string; message: string } }
}

async function call(server: SpawnedServer, path: string, init: { method?: string; token?: string; body?: unknown; ip: string }): Promise<Answer> {
  const response = await fetch(server.url + path, {
    method: init.method ?? (init.body ? "POST" : "GET"),
    headers: {
      "x-forwarded-for": init.ip,
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      ...(init.body ? { "content-type": "application/json" } : {})
    },
    ...(init.body ? { body: JSON.stringify(init.body) } : {})
  })
  return { status: response.status, body: (await response.json()) as Answer["body"] }
}

describe.each([
  { limits: "PostgreSQL", skip: onPostgres ? null : "embedded project" },
  { limits: "Redis", skip: onPostgres ? redisSkip : "embedded project" }
])("two API instances on one PostgreSQL database, limits in $limits", ({ limits, skip }) => {
  let instances: [SpawnedServer, SpawnedServer]
  let database: Awaited<ReturnType<typeof copyPostgresTemplate>>
  let redis: Awaited<ReturnType<typeof startRedis>> | null = null
  let provider: Awaited<ReturnType<typeof startStandIn>>
  const dataDirs: string[] = []
  let userCounter = 0

  /** A verified Free account made through instance A, its verification link followed through instance B. */
  async function verifiedUser(): Promise<{ email: string; ip: string }> {
    const email = `pair-${limits.toLowerCase()}-${++userCounter}@example.com`
    const ip = newIp()
    const [a, b] = instances
    expect((await call(a, "/api/auth/register", { ip, body: { email, password: PASSWORD, name: "Pair User", termsAccepted: true, privacyPolicyAccepted: true } })).status).toBe(201)
    expect((await call(b, "/api/auth/verify-email", { ip, body: { oobCode: await verificationCode(dataDirs, email) } })).status).toBe(200)
    return { email, ip }
  }

  const signIn = async (server: SpawnedServer, email: string, ip: string) => {
    const answer = await call(server, "/api/auth/login", { ip, body: { email, password: PASSWORD } })
    expect(answer.status).toBe(200)
    return answer.body.data!.token as string
  }

  beforeAll(async () => {
    if (skip) return
    database = await copyPostgresTemplate()
    if (limits === "Redis") redis = await startRedis()
    provider = await startStandIn((_request, response) => sendJson(response, 200, completion("A small square.")))
    const env = (dataDir: string) => ({
      DATA_DIR: dataDir,
      DATABASE_URL: database!.url,
      TRUST_PROXY: "1",
      OPENAI_API_KEY: "sk-test",
      OPENAI_BASE_URL: provider.url,
      // Both make sure of the same admin account as they start: neither may fail for the other's.
      ADMIN_EMAIL: SITE_ADMIN.email,
      ADMIN_PASSWORD: SITE_ADMIN.password,
      ...(redis ? { REDIS_URL: redis.url } : {})
    })
    for (let index = 0; index < 2; index++) dataDirs.push(await makeTempDir("iqa-instance-"))
    instances = (await Promise.all(dataDirs.map((dataDir) => spawnServer(env(dataDir))))) as [SpawnedServer, SpawnedServer]
  }, 120_000)

  afterAll(async () => {
    for (const instance of instances ?? []) {
      instance.child.kill("SIGTERM")
      await instance.exited
    }
    await provider?.close()
    await redis?.stop()
    await database?.drop()
    for (const dataDir of dataDirs) await fs.rm(dataDir, { recursive: true, force: true })
  })

  it.skipIf(skip)("a lockout reached through one instance is answered by the other", async () => {
    const { email, ip } = await verifiedUser()
    const [a, b] = instances
    const burst = await Promise.all(Array.from({ length: 20 }, (_, index) => call(index % 2 ? b : a, "/api/auth/login", { ip: newIp(), body: { email, password: "Not-The-Password-9!" } })))
    const codes = burst.map((answer) => answer.body.error?.code)
    expect(codes.filter((code) => code === "INVALID_CREDENTIALS").length).toBeLessThanOrEqual(5)
    // Lock it for sure: the remaining failures, one at a time, waiting out each progressive delay the instances ask
    // for. The failure that locks answers 401 with the lock's own retryAfter (15 minutes), which is not waited for.
    for (let attempt = 0; attempt < 12; attempt++) {
      const answer = await call(attempt % 2 ? a : b, "/api/auth/login", { ip: newIp(), body: { email, password: "Not-The-Password-9!" } })
      const error = answer.body.error as { code: string; retryAfter?: number; remainingAttempts?: number } | undefined
      if (error?.code === "ACCOUNT_LOCKED" || error?.remainingAttempts === 0) break
      if (error?.code === "PROGRESSIVE_DELAY") await new Promise((resolve) => setTimeout(resolve, Number(error.retryAfter) * 1000))
    }
    for (const server of instances) {
      const correct = await call(server, "/api/auth/login", { ip, body: { email, password: PASSWORD } })
      expect(correct.status).toBe(423)
      expect(correct.body.error?.code).toBe("ACCOUNT_LOCKED")
    }
  }, 60_000)

  it.skipIf(skip)("correct sign-ins of one account, four at a time across both, all succeed (a success's cleared count never breaks another's check)", async () => {
    const { email } = await verifiedUser()
    for (let round = 0; round < 15; round++) {
      const answers = await Promise.all(Array.from({ length: 4 }, (_, index) => call(instances[index % 2]!, "/api/auth/login", { ip: newIp(), body: { email, password: PASSWORD } })))
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200])
    }
  })

  it.skipIf(skip)("per-IP limits count the calls made to both: 31 sign-ins from one address, 30 answered", async () => {
    const ip = newIp()
    const [a, b] = instances
    const answers = await Promise.all(
      Array.from({ length: 31 }, (_, index) => call(index % 2 ? b : a, "/api/auth/login", { ip, body: { email: `nobody-${limits}-${index}@example.com`, password: "Whatever-1!" } }))
    )
    expect(answers.filter((answer) => answer.status === 401)).toHaveLength(30)
    expect(answers.filter((answer) => answer.status === 429).map((answer) => answer.body.error?.code)).toEqual(["RATE_LIMIT_EXCEEDED"])
  })

  it.skipIf(skip)("a resend cooldown started on one instance holds on the other", async () => {
    const ip = newIp()
    const email = `cooldown-${limits}@example.com`
    expect((await call(instances[0], "/api/auth/resend-verification", { ip, body: { email } })).status).toBe(200)
    const again = await call(instances[1], "/api/auth/resend-verification", { ip, body: { email } })
    expect(again.status).toBe(429)
    expect(again.body.error?.code).toBe("TOO_MANY_REQUESTS")
  })

  it.skipIf(skip)("20 resends at once from one client, split across both: one answered, 19 told to wait", async () => {
    const ip = newIp()
    const email = `cooldown-burst-${limits}@example.com`
    const answers = await Promise.all(Array.from({ length: 20 }, (_, index) => call(instances[index % 2]!, "/api/auth/resend-verification", { ip, body: { email } })))
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1)
    expect(answers.filter((answer) => answer.status === 429).map((answer) => answer.body.error?.code)).toEqual(Array(19).fill("TOO_MANY_REQUESTS"))
  })

  const askBoth = (tokens: string[], ip: string, count: number) =>
    Promise.all(
      Array.from({ length: count }, (_, index) =>
        call(instances[index % 2]!, "/api/analyze/ask", { ip, token: tokens[index % 2], body: { image: { dataUrl: PNG_DATA_URL }, question: `Question ${index}?` } })
      )
    )

  it.skipIf(skip)(`20 concurrent questions of one user split across both: ${MAX_MODEL_CALLS_IN_FLIGHT} reach the model, the others wait their turn`, async () => {
    const { email, ip } = await verifiedUser()
    const tokens = [await signIn(instances[0], email, ip), await signIn(instances[1], email, ip)]
    // The model takes its time, so every question of the burst arrives while the first ones run.
    provider.handle((_request, response) => setTimeout(() => sendJson(response, 200, completion("A small square.")), 500))
    try {
      const before = provider.requests.length
      const answers = await askBoth(tokens, ip, 20)
      expect(answers.filter((answer) => answer.status === 200)).toHaveLength(MAX_MODEL_CALLS_IN_FLIGHT)
      expect(answers.filter((answer) => answer.status === 429).map((answer) => answer.body.error?.code)).toEqual(Array(20 - MAX_MODEL_CALLS_IN_FLIGHT).fill("RATE_LIMIT_EXCEEDED"))
      expect(provider.requests.length - before).toBe(MAX_MODEL_CALLS_IN_FLIGHT)
      // Once they are answered, the slots are free again on both instances.
      expect((await askBoth(tokens, ip, 2)).map((answer) => answer.status)).toEqual([200, 200])
    } finally {
      provider.handle((_request, response) => sendJson(response, 200, completion("A small square.")))
    }
  })

  it.skipIf(skip)("the monthly quota holds across both: a Free user with 2 questions left asking 3 at once gets exactly 2 answered and counted", async () => {
    const { email, ip } = await verifiedUser()
    const tokens = [await signIn(instances[0], email, ip), await signIn(instances[1], email, ip)]
    for (let index = 0; index < 8; index++) expect((await askBoth([tokens[index % 2]!, tokens[index % 2]!], ip, 1))[0]!.status).toBe(200)
    const answers = await askBoth(tokens, ip, MAX_MODEL_CALLS_IN_FLIGHT)
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(2)
    expect(answers.filter((answer) => answer.status !== 200).map((answer) => answer.body.error?.code)).toEqual(["QUOTA_EXCEEDED"])
    for (const [index, server] of instances.entries()) {
      expect((await call(server, "/api/analyze/usage", { ip, token: tokens[index] })).body.data).toMatchObject({ used: 10, limit: 10 })
    }
  })

  it.skipIf(skip)("an API key's minute of 60 calls holds across both, and a key revoked on one is refused by the other at once", async () => {
    const { email, ip } = await verifiedUser()
    const [a, b] = instances
    const token = await signIn(a, email, ip)
    expect((await call(a, "/api/billing/trial", { ip, token, body: { planId: "pro" } })).status).toBe(201)
    const created = await call(a, "/api/keys", { ip, token, body: { name: "pair", currentPassword: PASSWORD } })
    expect(created.status).toBe(201)
    const { id, key } = created.body.data as { id: string; key: string }

    // 65 calls in bursts of 5 (its calls at once), each burst split across both: 60 answered, 5 told to wait.
    const answers: Answer[] = []
    for (let round = 0; round < 13; round++) {
      answers.push(...(await Promise.all(Array.from({ length: 5 }, (_, index) => call(index % 2 ? b : a, "/api/v1/usage", { ip, token: key })))))
    }
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(API_KEY_RATE_LIMIT.requests)
    expect(answers.filter((answer) => answer.status === 429).map((answer) => answer.body.error?.code)).toEqual(Array(5).fill("RATE_LIMIT_EXCEEDED"))

    expect((await call(a, `/api/keys/${id}`, { ip, token, method: "DELETE", body: {} })).status).toBe(200)
    const refused = await call(b, "/api/v1/usage", { ip, token: key })
    expect([refused.status, refused.body.error?.code]).toEqual([401, "INVALID_API_KEY"])
  })

  it.skipIf(skip)("a session ended on one instance is refused by the other at once", async () => {
    const { email, ip } = await verifiedUser()
    const token = await signIn(instances[0], email, ip)
    expect((await call(instances[1], "/api/auth/profile", { ip, token })).status).toBe(200)
    expect((await call(instances[0], "/api/auth/logout", { ip, token, method: "POST", body: {} })).status).toBe(200)
    const refused = await call(instances[1], "/api/auth/profile", { ip, token })
    expect(refused.status).toBe(401)
  })

  // The pool is one row in PostgreSQL whatever holds the other limits: once is enough.
  it.skipIf(skip || limits === "Redis")("an organisation's pool holds across both: 20 members asking at once, split across both, get exactly its 12", async () => {
    const [a, b] = instances
    const owner = await verifiedUser()
    const ownerToken = await signIn(a, owner.email, owner.ip)
    const card = { cardNumber: TEST_CARD_SUCCEEDS, expiryMonth: "12", expiryYear: String(new Date().getFullYear() + 2), cvc: "123", cardholderName: "Pair User" }
    const paid = await call(a, "/api/billing/test-payment", { ip: owner.ip, token: ownerToken, body: { planId: "enterprise", annual: false, ...card, email: owner.email, billingAddress: "1 Main Street", country: "US" } })
    expect(paid.status).toBeLessThan(300)
    const created = await call(b, "/api/organizations", { ip: owner.ip, token: ownerToken, body: { name: "Pied Piper" } })
    expect(created.status).toBe(201)
    const adminToken = (await call(a, "/api/auth/login", { ip: newIp(), body: SITE_ADMIN })).body.data!.token as string
    expect((await call(b, `/api/admin/organizations/${created.body.data!.id as string}/request-limit`, { ip: newIp(), method: "PUT", token: adminToken, body: { limit: 12 } })).status).toBe(200)

    const members = await Promise.all(
      Array.from({ length: 19 }, async (_, index) => {
        const member = await verifiedUser()
        const server = instances[index % 2]!
        expect((await call(server, "/api/organizations/current/invitations", { ip: owner.ip, token: ownerToken, body: { email: member.email, role: "member" } })).status).toBe(201)
        const code = new URL(await mailedLink(dataDirs, member.email, "Pair User invited you")).searchParams.get("code")
        const token = await signIn(instances[(index + 1) % 2]!, member.email, member.ip)
        expect((await call(server, "/api/organizations/invitations/accept", { ip: member.ip, token, body: { code } })).status).toBe(200)
        return { token, ip: member.ip }
      })
    )
    const everyone = [{ token: ownerToken, ip: owner.ip }, ...members]
    const answers = await Promise.all(everyone.map((who, index) => call(instances[index % 2]!, "/api/analyze/translate", { ip: who.ip, token: who.token, body: { text: "Hello", targetLanguage: "de" } })))
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(12)
    expect(answers.filter((answer) => answer.status !== 200).map((answer) => answer.body.error?.code)).toEqual(Array(8).fill("QUOTA_EXCEEDED"))
    for (const server of instances) {
      expect((await call(server, "/api/organizations/current", { ip: owner.ip, token: ownerToken })).body.data!.pool).toEqual({ limit: 12, used: 12 })
    }
  }, 90_000)

  // The disabled mark is a column PostgreSQL holds whatever holds the limits: once is enough.
  it.skipIf(skip || limits === "Redis")("an account disabled through one instance is refused by the other at once: its session, its API key and its sign-in", async () => {
    const [a, b] = instances
    const { email, ip } = await verifiedUser()
    const token = await signIn(b, email, ip)
    expect((await call(b, "/api/billing/trial", { ip, token, body: { planId: "pro" } })).status).toBe(201)
    const created = await call(b, "/api/keys", { ip, token, body: { name: "pair", currentPassword: PASSWORD } })
    expect(created.status).toBe(201)
    const { key } = created.body.data as { key: string }
    expect((await call(b, "/api/v1/usage", { ip, token: key })).status).toBe(200)
    const { id: userId } = (await call(b, "/api/auth/profile", { ip, token })).body.data!.user as { id: string }

    const adminToken = (await call(a, "/api/auth/login", { ip: newIp(), body: SITE_ADMIN })).body.data!.token as string
    expect((await call(a, `/api/admin/users/${userId}`, { ip: newIp(), method: "PATCH", token: adminToken, body: { disabled: true } })).status).toBe(200)

    expect((await call(b, "/api/auth/profile", { ip, token })).status).toBe(401)
    const keyRefused = await call(b, "/api/v1/usage", { ip, token: key })
    expect([keyRefused.status, keyRefused.body.error?.code]).toEqual([403, "ACCOUNT_DISABLED"])
    const signInRefused = await call(b, "/api/auth/login", { ip, body: { email, password: PASSWORD } })
    expect([signInRefused.status, signInRefused.body.error?.code]).toEqual([403, "ACCOUNT_DISABLED"])
  })
})
