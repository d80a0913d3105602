/**
 * The e-mail outbox on the project's database: retries with backoff on the app's clock, giving up after more than a
 * day, final refusals, erased bodies, requests answered by the worker, one sending per row however many workers
 * drain at once, and an SMTP server that refuses for a while and then accepts.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"

import { DAY_MS } from "~core/time"

import { startSmtpStandIn, type SmtpStandIn } from "../../tests/smtp-stand-in"
import type { Mailer, OutgoingMail } from "./mailer"
import { DEFAULT_OUTBOX_TIMINGS, Outbox, queueEmail, queueRequest } from "./outbox"
import { insertMessage } from "./outbox-store"
import { startTestApp, type TestApp } from "../test-kit"

const START = Date.UTC(2026, 10, 24, 9, 0, 0)
let now = START
let subject: TestApp | null = null

/** A mailer that fails while `failing` says so, and records what it sent. */
function scriptedMailer() {
  const state = { sent: [] as OutgoingMail[], failing: null as null | (() => Error) }
  const mailer: Mailer = {
    description: "a scripted mailer",
    async send(message) {
      if (state.failing) throw state.failing()
      state.sent.push(message)
    },
    close() {}
  }
  return { mailer, state }
}

const smtpError = (responseCode: number) => Object.assign(new Error(`SMTP ${responseCode}`), { responseCode, code: "EENVELOPE" })
const mail = (to: string, subject = "Hello") => ({ to, what: "test", content: { subject, text: `A message for ${to}` } })
const rows = () => subject!.app.database.db.selectFrom("email_outbox").selectAll().orderBy("seq").execute()

async function start(mailer: Mailer) {
  subject = await startTestApp({}, { mailer, clock: () => now })
  return subject.app
}

afterEach(async () => {
  await subject?.close()
  subject = null
  now = START
})

describe("the e-mail outbox", () => {
  it("retries a failing e-mail with a doubling delay on the app's clock, sends it once it can, and erases its body", async () => {
    const { mailer, state } = scriptedMailer()
    const app = await start(mailer)
    state.failing = () => Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" })
    await queueEmail(app, app.database.db, mail("retry@example.com"))
    await app.outbox.idle()
    let [row] = await rows()
    expect(row).toMatchObject({ attempts: 1, sent_at: null, failed_at: null, last_error: "ECONNREFUSED" })
    expect(row!.next_attempt_at.getTime()).toBe(START + DEFAULT_OUTBOX_TIMINGS.firstRetryMs)

    now = START + DEFAULT_OUTBOX_TIMINGS.firstRetryMs
    await app.outbox.idle()
    ;[row] = await rows()
    expect(row!.attempts).toBe(2)
    expect(row!.next_attempt_at.getTime()).toBe(now + 2 * DEFAULT_OUTBOX_TIMINGS.firstRetryMs)

    // Not due yet: nothing happens.
    now += DEFAULT_OUTBOX_TIMINGS.firstRetryMs
    state.failing = null
    await app.outbox.idle()
    expect(state.sent).toHaveLength(0)

    now += DEFAULT_OUTBOX_TIMINGS.firstRetryMs
    await app.outbox.idle()
    expect(state.sent.map((message) => message.to)).toEqual(["retry@example.com"])
    ;[row] = await rows()
    expect(row).toMatchObject({ attempts: 3, subject: null, body: null, failed_at: null })
    expect(row!.sent_at).not.toBeNull()
  })

  it("keeps trying for more than a day, then gives up with its body erased; a final refusal (5xx) is given up at once", async () => {
    const { mailer, state } = scriptedMailer()
    const app = await start(mailer)
    state.failing = () => smtpError(421)
    await queueEmail(app, app.database.db, mail("patient@example.com"))
    let attempts = 0
    for (; now < START + 2 * DAY_MS; now += 60 * 60_000) {
      await app.outbox.idle()
      const [row] = await rows()
      attempts = row!.attempts
      if (row!.failed_at) break
    }
    const [given] = await rows()
    expect(given!.failed_at!.getTime()).toBeGreaterThanOrEqual(START + DAY_MS)
    expect(given).toMatchObject({ subject: null, body: null, last_error: "EENVELOPE 421" })
    expect(attempts).toBeGreaterThan(20)

    state.failing = () => smtpError(550)
    await queueEmail(app, app.database.db, mail("nobody@example.com"))
    await app.outbox.idle()
    const [, refused] = await rows()
    expect(refused).toMatchObject({ attempts: 1, subject: null, body: null, last_error: "EENVELOPE 550" })
    expect(refused!.failed_at).not.toBeNull()
    expect(state.sent).toEqual([])
  })

  it("answers a stored request through its resolver, in queueing order, and a request that calls for nothing sends nothing", async () => {
    const { mailer, state } = scriptedMailer()
    const app = await start(mailer)
    app.outbox.onRequest("greeting request", async (_trx, address) => (address.endsWith("@known.example") ? mail(address, "Greetings") : null))
    await queueRequest(app, app.database.db, { address: "ada@known.example", what: "greeting request" })
    await queueRequest(app, app.database.db, { address: "eve@unknown.example", what: "greeting request" })
    await queueEmail(app, app.database.db, mail("after@example.com", "Queued last"))
    await app.outbox.idle()
    expect(state.sent.map((message) => [message.to, message.subject])).toEqual([
      ["ada@known.example", "Greetings"],
      ["after@example.com", "Queued last"]
    ])
    expect((await rows()).every((row) => row.sent_at !== null && row.body === null)).toBe(true)
  })

  it("sends each of 30 e-mails once while 20 drains of 3 workers on one database run at once", async () => {
    const { mailer, state } = scriptedMailer()
    const app = await start(mailer)
    const workers = [app.outbox, ...[1, 2].map(() => new Outbox({ db: app.database.db, mailer, log: app.log, clock: () => now, timings: DEFAULT_OUTBOX_TIMINGS, singleProcess: false }))]
    for (let index = 0; index < 30; index++) await queueEmail(app, app.database.db, mail(`burst${index}@example.com`))
    await Promise.all(Array.from({ length: 20 }, (_, index) => workers[index % workers.length]!.idle()))
    expect(state.sent).toHaveLength(30)
    expect(new Set(state.sent.map((message) => message.to)).size).toBe(30)
    await Promise.all(workers.slice(1).map((worker) => worker.close()))
  })
})

describe("an idle worker", () => {
  it("looks at the database less and less often while it finds nothing, and still finds a row no local queueing told it of", async () => {
    const { mailer, state } = scriptedMailer()
    const app = await start(scriptedMailer().mailer)
    await app.outbox.close()
    let looks = 0
    const counted = app.database.db.withPlugin({
      transformQuery: (args) => {
        if (args.node.kind === "SelectQueryNode" || args.node.kind === "UpdateQueryNode") looks++
        return args.node
      },
      transformResult: async (args) => args.result
    })
    const timings = { ...DEFAULT_OUTBOX_TIMINGS, pollMs: 20, idlePollMs: 320 }
    const worker = new Outbox({ db: counted, mailer, log: app.log, clock: () => now, timings, singleProcess: false })
    await worker.start()
    await new Promise((resolve) => setTimeout(resolve, 2_000))
    // Every 20 ms, 2 s would be 100 looks; doubling up to 320 ms, about 10.
    expect(looks).toBeLessThan(25)
    expect(looks).toBeGreaterThan(2)
    // A row another instance queued (no wake here): found by the next look.
    await insertMessage(app.database.db, { to: "elsewhere@example.com", what: "test", subject: "Hello", text: "From another instance" }, new Date(now))
    await expect.poll(() => state.sent.map((message) => message.to), { timeout: 5_000 }).toEqual(["elsewhere@example.com"])
    await worker.close()
  })
})

describe("an e-mail queued in a transaction", () => {
  it("is sent soon after the transaction commits, not left to the next look", async () => {
    const { mailer, state } = scriptedMailer()
    const app = await start(mailer)
    await app.outbox.close()
    // Looks a minute apart: only the queueing's wake can send it within the test's time.
    const timings = { ...DEFAULT_OUTBOX_TIMINGS, pollMs: 60_000, idlePollMs: 60_000 }
    const worker = new Outbox({ db: app.database.db, mailer, log: app.log, clock: () => now, timings, singleProcess: false })
    await worker.start()
    await worker.idle()
    await app.database.db.transaction().execute(async (trx) => {
      await queueEmail({ outbox: worker, clock: () => now }, trx, mail("committed@example.com"))
      // The rest of the request's work, before the commit: on PostgreSQL the first look comes before it.
      await new Promise((resolve) => setTimeout(resolve, 150))
    })
    await expect.poll(() => state.sent.map((message) => message.to), { timeout: 2_000 }).toEqual(["committed@example.com"])
    await worker.close()
  })
})

describe("an SMTP server that refuses for a while, then accepts", () => {
  let refusing = true
  let smtp: SmtpStandIn
  beforeAll(async () => {
    smtp = await startSmtpStandIn({ onConnect: () => (refusing ? Object.assign(new Error("Service not available, try again later"), { responseCode: 421 }) : null) })
  })
  afterAll(() => smtp.close())
  const received = () => smtp.received.flatMap((mail) => mail.to)

  it("receives every e-mail exactly once", async () => {
    // Real time here: the worker polls and backs off on its own, on short test timings.
    subject = await startTestApp({ SMTP_URL: smtp.url }, { outboxTimings: { pollMs: 50, idlePollMs: 400, firstRetryMs: 100, maxRetryMs: 400 } })
    const app = subject.app
    const addresses = Array.from({ length: 12 }, (_, index) => `outage${index}@example.com`)
    for (const address of addresses) await queueEmail(app, app.database.db, mail(address))
    // The first attempts are refused, and retried.
    await expect.poll(async () => (await rows()).filter((row) => row.last_error !== null).length, { timeout: 10_000 }).toBe(addresses.length)
    expect(received()).toEqual([])
    refusing = false
    await expect.poll(() => received().length, { timeout: 15_000 }).toBe(addresses.length)
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(received().sort()).toEqual([...addresses].sort())
    expect((await rows()).every((row) => row.sent_at !== null)).toBe(true)
  })
})
