/**
 * The real server process on a PostgreSQL and a Redis of the test's own, 20 clients calling it all along, while
 * each service in turn goes away for 10 s: shut down (connections refused) or frozen with SIGSTOP (connections open,
 * nothing answers). Every call made meanwhile is answered within about a second, with a success or the spec's 503;
 * calls succeed again within a few seconds of the service's return, with no restart; and every write answered 2xx,
 * before, during or after a fault, is stored, its e-mail sent.
 */
import fs from "node:fs/promises"

import { sql } from "kysely"
import pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { postgresServerUnavailableReason, startOwnPostgres, type OwnPostgres } from "../tests/postgres-server"
import { readOutbox, verificationCode } from "../tests/outbox"
import { redisUnavailableReason, startRedis } from "../tests/redis-server"
import { openDatabase } from "./db/database"
import { keepCalling, PASSWORD, recovered, refusedAsUnavailable, registration, succeeded, type Answer, type CallKind } from "./faults-load"
import { makeTempDir, spawnServer, type SpawnedServer } from "./test-kit"

// Outside CI a missing binary skips with the reason; in CI each of these throws.
const unavailable = postgresServerUnavailableReason() ?? redisUnavailableReason()
if (unavailable) console.warn(`Fault tests skipped: ${unavailable}.`)

const CLIENTS = 20
const FAULT_MS = 10_000
/** "About a second", with room for a busy 2-core machine; a hang is cut at NO_ANSWER_MS and fails. */
const ANSWER_WITHIN_MS = 2_000
const RECOVERY_WITHIN_MS = 5_000
/** Calls before a fault, and after the recovery, all of which must succeed. */
const STEADY_MS = 1_000

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** One line per answer in a failure's message: what, how, how long, when. */
const described = (origin: number) => (answer: Answer) =>
  `${answer.kind} ${answer.status} ${String(answer.body?.error?.code ?? "")} in ${answer.endedAt - answer.startedAt} ms, started at ${answer.startedAt - origin} ms`

/** The first few, and how many in all: enough to see what went wrong without a wall of lines. */
const some = (lines: string[]) => (lines.length > 8 ? [...lines.slice(0, 8), `… ${lines.length} in all`] : lines)

interface Service {
  /** Takes the service away (shut down or frozen). */
  away(): Promise<void>
  /** Brings it back; settles when it answers again. */
  back(): Promise<void>
}

describe.skipIf(unavailable)("PostgreSQL or Redis away for 10 s while 20 clients call", () => {
  let postgres: OwnPostgres
  let redis: Awaited<ReturnType<typeof startRedis>>
  let server: SpawnedServer
  let dataDir: string
  let token: string
  const acknowledged = { registrations: [] as string[], feedback: [] as string[] }

  beforeAll(async () => {
    ;[postgres, redis] = await Promise.all([startOwnPostgres(), startRedis()])
    dataDir = await makeTempDir("iqa-faults-")
    server = await spawnServer({ DATA_DIR: dataDir, TRUST_PROXY: "1", DATABASE_URL: postgres.url, REDIS_URL: redis.url })
    // A signed-in account for the reads.
    const email = "reader@example.com"
    const post = (path: string, body: unknown) =>
      fetch(server.url + path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }).then(
        async (response) => ({ status: response.status, body: (await response.json()) as { data?: { token?: string } } })
      )
    expect((await post("/api/auth/register", registration(email))).status).toBe(201)
    expect((await post("/api/auth/verify-email", { oobCode: await verificationCode(dataDir, email) })).status).toBe(200)
    token = (await post("/api/auth/login", { email, password: PASSWORD })).body.data?.token ?? ""
    expect(token).not.toBe("")
  }, 90_000)

  afterAll(async () => {
    if (server) {
      server.child.kill("SIGTERM")
      await server.exited
    }
    await redis?.stop()
    await postgres?.destroy()
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true })
  })

  /**
   * Keeps the clients calling through the fault and checks its answers: all succeed before it; while the service is
   * away each comes within ANSWER_WITHIN_MS as a success or the spec's 503 (and `refused` kinds are refused at least
   * once, so that the fault did reach them); after the return every kind succeeds again within RECOVERY_WITHIN_MS,
   * and from then on every call does.
   */
  async function throughFault(tag: string, service: Service, refused: CallKind[], unaffected: CallKind[] = []) {
    const load = keepCalling(server.url, { clients: CLIENTS, token, tag })
    let away = false
    let awayAt = 0
    let backAt = 0
    let recoveredAt = 0
    let answers: Answer[]
    try {
      await sleep(STEADY_MS)
      awayAt = Date.now()
      away = true
      await service.away()
      await sleep(FAULT_MS)
      await service.back()
      away = false
      backAt = Date.now()
      recoveredAt = await recovered(load, backAt, RECOVERY_WITHIN_MS)
      await sleep(STEADY_MS)
    } finally {
      if (away) await service.back()
      answers = await load.stop()
    }
    const line = described(awayAt)
    const before = answers.filter((answer) => answer.endedAt < awayAt)
    expect(before.length).toBeGreaterThan(CLIENTS)
    expect(some(before.filter((answer) => !succeeded(answer)).map(line))).toEqual([])

    const during = answers.filter((answer) => answer.endedAt >= awayAt && answer.startedAt < backAt)
    expect(some(during.filter((answer) => answer.endedAt - answer.startedAt > ANSWER_WITHIN_MS).map(line))).toEqual([])
    expect(some(answers.filter((answer) => !succeeded(answer) && !refusedAsUnavailable(answer)).map(line))).toEqual([])
    const refusedKinds = new Set(during.filter(refusedAsUnavailable).map((answer) => answer.kind))
    expect([...refusedKinds].sort()).toEqual(expect.arrayContaining(refused))
    for (const kind of unaffected) expect(some(during.filter((answer) => answer.kind === kind && !succeeded(answer)).map(line))).toEqual([])

    const after = answers.filter((answer) => answer.startedAt >= recoveredAt)
    expect(after.length).toBeGreaterThan(CLIENTS)
    expect(some(after.filter((answer) => !succeeded(answer)).map(line))).toEqual([])

    for (const answer of answers.filter(succeeded)) {
      if (answer.kind === "register") acknowledged.registrations.push(answer.wrote!)
      if (answer.kind === "feedback") acknowledged.feedback.push(answer.wrote!)
    }
  }

  it("a query slower than a second on a server that answers is not cut short", async () => {
    const database = await openDatabase({ databaseUrl: postgres.url })
    try {
      const started = Date.now()
      const slow = await Promise.all(Array.from({ length: 12 }, () => sql<{ ok: number }>`select 1 as ok from pg_sleep(1.2)`.execute(database.db)))
      expect(slow.map((result) => result.rows[0]?.ok)).toEqual(Array(12).fill(1))
      // Twelve on a pool of ten: two waited for a connection, and still ran whole.
      expect(Date.now() - started).toBeGreaterThanOrEqual(2_400)
    } finally {
      await database.close()
    }
  })

  it("PostgreSQL shut down: 503 within a second, success again once it is back", async () => {
    await throughFault("pg-down", { away: () => postgres.stop(), back: () => postgres.start() }, ["register", "feedback", "profile"])
  }, 45_000)

  it("PostgreSQL frozen (SIGSTOP, connections open): 503 within a second instead of a hang, success again once it goes on", async () => {
    await throughFault("pg-frozen", { away: async () => postgres.pause(), back: async () => postgres.resume() }, ["register", "feedback", "profile"])
  }, 45_000)

  it("Redis frozen (SIGSTOP): the calls that count limits get 503 within a second, the others go on", async () => {
    const pid = redis.pid
    const signal = (name: NodeJS.Signals) => async () => void process.kill(pid, name)
    await throughFault("redis-frozen", { away: signal("SIGSTOP"), back: signal("SIGCONT") }, ["register", "feedback"], ["profile"])
  }, 45_000)

  it("Redis shut down: the calls that count limits get 503 within a second, and the client connects again by itself", async () => {
    const { port } = redis
    await throughFault("redis-down", { away: () => redis.stop(), back: async () => void (redis = await startRedis(port)) }, ["register", "feedback"], ["profile"])
  }, 45_000)

  it("keeps every write it acknowledged, and sends the e-mail of every acknowledged registration", async () => {
    expect(acknowledged.registrations.length).toBeGreaterThan(0)
    expect(acknowledged.feedback.length).toBeGreaterThan(0)
    const client = new pg.Client({ connectionString: postgres.url })
    await client.connect()
    try {
      const users = await client.query<{ email: string }>("select email from users where email = any($1)", [acknowledged.registrations])
      expect(acknowledged.registrations.filter((email) => !users.rows.some((row) => row.email === email))).toEqual([])
      const feedback = await client.query<{ message: string }>("select message from feedback where message = any($1)", [acknowledged.feedback])
      expect(acknowledged.feedback.filter((message) => !feedback.rows.some((row) => row.message === message))).toEqual([])
    } finally {
      await client.end()
    }
    // A claim a fault cut short is taken again when its lease (20 s) runs out: the mail comes late, never not at all.
    const deadline = Date.now() + 40_000
    let unsent: string[] = acknowledged.registrations
    while (unsent.length > 0 && Date.now() < deadline) {
      const mailed = new Set((await readOutbox(dataDir)).filter((mail) => mail.subject.startsWith("Verify")).map((mail) => mail.to))
      unsent = unsent.filter((email) => ![...mailed].some((to) => to.includes(email)))
      if (unsent.length > 0) await sleep(250)
    }
    expect(some(unsent)).toEqual([])
  }, 60_000)
})
