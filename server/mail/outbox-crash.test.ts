/**
 * Nothing promised is lost: 30 verified accounts ask for a password reset at once, every server is SIGKILLed right
 * after the 30 answers, and restarted: 30 reset e-mails arrive within a minute, none twice. On the embedded database
 * one process is killed and restarted on its DATA_DIR; on PostgreSQL two instances share the database, both are
 * killed while they hold claimed e-mails, and both restarted: their claims run out and the e-mails are taken over.
 * The mail server is a local SMTP stand-in that answers slowly during the burst, so that e-mails are still waiting
 * when the servers die. Invitations to an organisation, sent in the same burst, arrive alike.
 */
import fs from "node:fs/promises"
import { afterAll, beforeAll, expect, it } from "vitest"

import { TEST_CARD_SUCCEEDS } from "~core/billing/billing"

import { startSmtpStandIn, type SmtpStandIn } from "../../tests/smtp-stand-in"
import { copyPostgresTemplate, makeTempDir, spawnServer, type SpawnedServer } from "../test-kit"

const PASSWORD = "Copper-Kettle-37!"
const ACCOUNTS = 30
const INVITATIONS = 5

let slow = false
let smtp: SmtpStandIn

beforeAll(async () => {
  // While slow, each e-mail waits before its data is sent: a server killed meanwhile has sent nothing of it.
  smtp = await startSmtpStandIn({ onRecipient: (accept) => (slow ? setTimeout(accept, 1000) : accept()) })
})
afterAll(() => smtp.close())

/** The e-mails the stand-in accepted: recipient, subject and the first link. */
const received = () =>
  smtp.received.map((mail) => {
    const body = mail.data.replace(/=\r?\n/g, "").replace(/=3D/g, "=")
    return { to: mail.to[0]!, subject: /^Subject: (.*)$/m.exec(mail.data)?.[1]?.trim() ?? "", link: /https?:\/\/\S+/.exec(body)?.[0] ?? "" }
  })

async function post(server: SpawnedServer, path: string, body: unknown, ip: string, token?: string) {
  const headers = { "content-type": "application/json", "x-forwarded-for": ip, ...(token ? { authorization: `Bearer ${token}` } : {}) }
  const response = await fetch(server.url + path, { method: "POST", headers, body: JSON.stringify(body) })
  return response.status
}

/** The first account signs in, pays for Enterprise in test mode and makes an organisation; its session token. */
async function organizationOwner(server: SpawnedServer, email: string): Promise<string> {
  const ip = "192.0.2.200"
  const login = await fetch(`${server.url}/api/auth/login`, { method: "POST", headers: { "content-type": "application/json", "x-forwarded-for": ip }, body: JSON.stringify({ email, password: PASSWORD }) })
  const token = ((await login.json()) as { data: { token: string } }).data.token
  const card = { cardNumber: TEST_CARD_SUCCEEDS, expiryMonth: "12", expiryYear: String(new Date().getFullYear() + 2), cvc: "123", cardholderName: "Crash Test" }
  expect(await post(server, "/api/billing/test-payment", { planId: "enterprise", annual: false, ...card, email, billingAddress: "1 Main Street", country: "US" }, ip, token)).toBe(201)
  expect(await post(server, "/api/organizations", { name: "Crashworks" }, ip, token)).toBe(201)
  return token
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

it(`sends all ${ACCOUNTS} password resets acknowledged right before a SIGKILL, after the restart, within a minute and none twice`, async () => {
  const postgres = await copyPostgresTemplate()
  const instances = postgres ? 2 : 1
  const dataDirs = await Promise.all(Array.from({ length: instances }, () => makeTempDir("iqa-outbox-crash-")))
  const env = (dataDir: string) => ({ DATA_DIR: dataDir, TRUST_PROXY: "1", SMTP_URL: smtp.url, ...(postgres ? { DATABASE_URL: postgres.url } : {}) })
  const servers: SpawnedServer[] = []
  try {
    // One after another: the first applies the migrations.
    for (const dataDir of dataDirs) servers.push(await spawnServer(env(dataDir)))
    const emails = Array.from({ length: ACCOUNTS }, (_, index) => `reset${index}@example.com`)
    for (const [index, email] of emails.entries()) {
      const server = servers[index % instances]!
      const ip = `198.51.100.${index + 1}`
      expect(await post(server, "/api/auth/register", { email, password: PASSWORD, name: "Crash Test", termsAccepted: true, privacyPolicyAccepted: true }, ip)).toBe(201)
      const verification = await waitFor(() => received().find((mail) => mail.to === email && mail.subject.startsWith("Verify")), `the verification e-mail of ${email}`)
      expect(await post(server, "/api/auth/verify-email", { oobCode: new URL(verification.link).searchParams.get("oobCode") }, ip)).toBe(200)
    }
    await waitFor(() => (received().filter((mail) => mail.subject.startsWith("Welcome")).length === ACCOUNTS ? true : undefined), "the welcome e-mails")

    const owner = await organizationOwner(servers[0]!, emails[0]!)
    const invitees = Array.from({ length: INVITATIONS }, (_, index) => `invitee${index}@example.com`)

    slow = true
    const resetAnswers = emails.map((email, index) => post(servers[index % instances]!, "/api/auth/forgot-password", { email }, `203.0.113.${index + 1}`))
    const invitationAnswers = invitees.map((email, index) => post(servers[index % instances]!, "/api/organizations/current/invitations", { email, role: "member" }, "192.0.2.200", owner))
    const [answers, invited] = await Promise.all([Promise.all(resetAnswers), Promise.all(invitationAnswers)])
    for (const server of servers) server.child.kill("SIGKILL")
    expect(answers).toEqual(Array(ACCOUNTS).fill(200))
    expect(invited).toEqual(Array(INVITATIONS).fill(201))
    await Promise.all(servers.map((server) => server.exited))
    slow = false
    const sentBeforeTheCrash = received().filter((mail) => mail.subject.startsWith("Reset")).length

    const restartedAt = Date.now()
    servers.length = 0
    for (const dataDir of dataDirs) servers.push(await spawnServer(env(dataDir)))
    const resets = () => received().filter((mail) => mail.subject.startsWith("Reset"))
    await waitFor(() => (new Set(resets().map((mail) => mail.to)).size === ACCOUNTS ? true : undefined), `${ACCOUNTS} reset e-mails`, 60_000)
    expect(Date.now() - restartedAt).toBeLessThan(60_000)
    // Time for a duplicate to show, had any row been sent twice.
    await new Promise((resolve) => setTimeout(resolve, 1500))
    expect(resets().map((mail) => mail.to).sort()).toEqual([...emails].sort())
    const invitations = () => received().filter((mail) => mail.subject.includes("invited you to Crashworks"))
    await waitFor(() => (new Set(invitations().map((mail) => mail.to)).size === INVITATIONS ? true : undefined), `${INVITATIONS} invitations`, 30_000)
    expect(invitations().map((mail) => mail.to).sort()).toEqual([...invitees].sort())
    expect(sentBeforeTheCrash).toBeLessThan(ACCOUNTS)
  } finally {
    for (const server of servers) {
      server.child.kill("SIGKILL")
      await server.exited
    }
    await postgres?.drop()
    for (const dataDir of dataDirs) await fs.rm(dataDir, { recursive: true, force: true })
  }
}, 180_000)
