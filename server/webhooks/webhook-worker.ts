/**
 * Sends the deliveries webhook-events.ts queued: the e-mail outbox's pattern (server/mail/outbox.ts), for webhooks. A
 * worker in every instance claims due rows with FOR UPDATE SKIP LOCKED under a lease it renews while it sends, so an
 * endpoint gets each delivery from one instance; the rows of a worker that died are taken over once its lease runs out
 * (on the embedded database, which one process uses, at once on the next start). Unlike e-mails, deliveries go out in
 * parallel (a receiver may take the whole 10 s time-out), up to `concurrency` per instance and `perOwner` per owner,
 * so that one account's slow receivers cannot hold every sender. A failure or a non-2xx answer is retried with
 * exponential backoff for more than a day, then the delivery is `failed`.
 *
 * Its own class rather than the e-mail Outbox's: that one sends the rows of one claim one after another under one
 * renewal, with request rows resolved in a transaction; these are sent in parallel, each freeing its sender on its own,
 * and claimed with a per-owner share. What is the same is the pattern (the claim and lease queries, the poll that slows
 * down when idle, the looks until a queueing's transaction has committed), kept in the same shape so both read alike.
 */
import type { FastifyBaseLogger } from "fastify"
import type { Kysely } from "kysely"

import { DAY_MS, monthKey } from "~core/time"

import { open } from "../auth/mfa/secret-box"
import type { SealingKeys } from "../auth/mfa/secret-box"
import type { DatabaseSchema } from "../db/schema"
import { attemptDelivery, type AttemptResult } from "./webhook-sender"
import { claimDue, extendClaims, markDelivered, markFailed, purgeDone, releaseAllClaims, scheduleRetry, type ClaimedDelivery } from "./webhook-store"

declare module "fastify" {
  interface FastifyInstance {
    webhooks: WebhookWorker
  }
}

export const webhookSecretPurpose = (endpointId: string) => `webhook-secret:${endpointId}`

export interface WebhookTimings {
  /** How soon the worker looks again after a look that found rows; each empty look doubles it, up to idlePollMs. */
  pollMs: number
  idlePollMs: number
  /** How long a claim lasts unless renewed (every third of it while sending); longer than requestTimeoutMs. */
  leaseMs: number
  /** One attempt's time-out: connection, request and the answer's headers. */
  requestTimeoutMs: number
  /** The first retry's delay; each next one doubles, up to maxRetryMs. */
  firstRetryMs: number
  maxRetryMs: number
  /** A delivery still failing this long after it was queued is given up: failed. */
  giveUpAfterMs: number
  /** Delivered or failed rows are forgotten after this. */
  keepDoneMs: number
}

export const DEFAULT_WEBHOOK_TIMINGS: WebhookTimings = {
  pollMs: 1_000,
  idlePollMs: 8_000,
  leaseMs: 30_000,
  requestTimeoutMs: 10_000,
  firstRetryMs: 30_000,
  maxRetryMs: 60 * 60_000,
  giveUpAfterMs: DAY_MS + 2 * 60 * 60_000,
  keepDoneMs: 30 * DAY_MS
}

/** Deliveries one instance sends at once, and at most per owner (a person, an organisation). */
const CONCURRENCY = 8
const PER_OWNER = 2
/** As the e-mail outbox: looks made after a queueing in a transaction, until it has committed. */
const UNTIL_COMMIT_MS = [25, 100, 400, 1_600]
const PURGE_EVERY_MS = 10 * 60_000

export interface WebhookWorkerDeps {
  db: Kysely<DatabaseSchema>
  log: FastifyBaseLogger
  clock: () => number
  sealingKeys: SealingKeys
  timings: WebhookTimings
  allowLoopback: boolean
  singleProcess: boolean
}

export class WebhookWorker {
  private readonly inFlight = new Map<string, Promise<void>>()
  private timer: NodeJS.Timeout | null = null
  private pollDelayMs: number
  private woken: NodeJS.Immediate | null = null
  private untilCommit: NodeJS.Timeout | null = null
  private renewal: NodeJS.Timeout | null = null
  private claiming: Promise<number> | null = null
  private again = false
  private closed = false
  private started = false
  private lastPurge = 0

  constructor(private readonly deps: WebhookWorkerDeps) {
    this.pollDelayMs = deps.timings.pollMs
  }

  async start(): Promise<void> {
    if (this.deps.singleProcess) await releaseAllClaims(this.deps.db)
    this.started = true
    this.renewal = setInterval(() => {
      const ids = [...this.inFlight.keys()]
      void extendClaims(this.deps.db, ids, new Date(this.deps.clock() + this.deps.timings.leaseMs)).catch(() => {})
    }, this.deps.timings.leaseMs / 3)
    this.renewal.unref()
    this.schedulePoll()
    this.wake()
  }

  private logError(error: unknown): void {
    this.deps.log.error({ err: error }, "the webhook deliveries could not be read")
  }

  private schedulePoll(): void {
    if (this.closed) return
    this.timer = setTimeout(() => {
      void this.pass()
        .then((claimed) => {
          const { pollMs, idlePollMs } = this.deps.timings
          this.pollDelayMs = claimed > 0 ? pollMs : Math.min(idlePollMs, this.pollDelayMs * 2)
        })
        .catch((error: unknown) => this.logError(error))
        .finally(() => this.schedulePoll())
    }, this.pollDelayMs)
    this.timer.unref()
  }

  /** Looks for due rows soon; `inTransaction`: again a few times over two seconds, until the queueing has committed. */
  wake(inTransaction = false): void {
    if (inTransaction) this.lookUntilFound(0)
    if (this.closed || this.woken || !this.started) return
    this.woken = setImmediate(() => {
      this.woken = null
      void this.pass().catch((error: unknown) => this.logError(error))
    })
  }

  private lookUntilFound(attempt: number): void {
    if (this.untilCommit) clearTimeout(this.untilCommit)
    this.untilCommit = null
    const delay = UNTIL_COMMIT_MS[attempt]
    if (this.closed || !this.started || delay === undefined) return
    this.untilCommit = setTimeout(() => {
      this.untilCommit = null
      void this.pass()
        .then((claimed) => claimed === 0 && this.untilCommit === null && this.lookUntilFound(attempt + 1))
        .catch((error: unknown) => this.logError(error))
    }, delay)
    this.untilCommit.unref()
  }

  /** Settles once every row due now has been sent or given its retry time: what tests wait for. */
  async idle(): Promise<void> {
    for (;;) {
      if (this.claiming) await this.claiming.catch(() => 0)
      await Promise.all(this.inFlight.values())
      if ((await this.pass()) === 0 && this.inFlight.size === 0) return
    }
  }

  /** Stops claiming and finishes the deliveries it holds. */
  async close(): Promise<void> {
    this.closed = true
    if (this.timer) clearTimeout(this.timer)
    if (this.woken) clearImmediate(this.woken)
    if (this.untilCommit) clearTimeout(this.untilCommit)
    await this.claiming?.catch(() => 0)
    await Promise.all(this.inFlight.values())
    if (this.renewal) clearInterval(this.renewal)
  }

  /** One claim of what the free senders can take; answers how many rows it claimed. One claim runs at a time. */
  private pass(): Promise<number> {
    if (this.claiming) {
      this.again = true
      return this.claiming
    }
    const run = this.claim().finally(() => {
      this.claiming = null
      if (this.again && !this.closed) {
        this.again = false
        this.wake()
      }
    })
    this.claiming = run
    return run
  }

  private async claim(): Promise<number> {
    const { db, clock, timings } = this.deps
    if (this.closed) return 0
    if (clock() - this.lastPurge > PURGE_EVERY_MS) {
      this.lastPurge = clock()
      await purgeDone(db, new Date(clock() - timings.keepDoneMs), monthKey(clock()))
    }
    const free = CONCURRENCY - this.inFlight.size
    const rows = await claimDue(db, new Date(clock()), timings.leaseMs, free, PER_OWNER)
    if (rows.length > 0) this.pollDelayMs = timings.pollMs
    for (const row of rows) {
      const sending = this.send(row).finally(() => {
        this.inFlight.delete(row.id)
        // A sender is free (and an owner's share too): more may be due.
        this.wake()
      })
      this.inFlight.set(row.id, sending)
    }
    return rows.length
  }

  private async send(row: ClaimedDelivery): Promise<void> {
    const { db, clock, timings, log } = this.deps
    let result: AttemptResult
    try {
      const secret = open(row.secret_sealed, this.deps.sealingKeys, webhookSecretPurpose(row.endpoint_id))
      result = await attemptDelivery({ url: row.url, secret, msgId: row.id, payload: row.payload, at: new Date(clock()), allowLoopback: this.deps.allowLoopback, timeoutMs: timings.requestTimeoutMs })
    } catch (error) {
      result = { ok: false, statusCode: null, error: error instanceof Error ? error.name : "Error" }
    }
    try {
      const now = clock()
      if (result.ok) {
        await markDelivered(db, row.id, result.statusCode, new Date(now))
        log.info({ webhookId: row.id, endpointId: row.endpoint_id, event: row.event_type, attempts: row.attempts }, "webhook delivered")
        return
      }
      const outcome = { statusCode: result.statusCode, error: result.error }
      if (now - row.created_at.getTime() >= timings.giveUpAfterMs) {
        log.error({ webhookId: row.id, endpointId: row.endpoint_id, event: row.event_type, error: result.error }, `the ${row.event_type} webhook was given up after ${row.attempts} attempt(s)`)
        await markFailed(db, row.id, new Date(now), outcome)
        return
      }
      const delay = Math.min(timings.maxRetryMs, timings.firstRetryMs * 2 ** Math.max(0, row.attempts - 1))
      log.warn({ webhookId: row.id, endpointId: row.endpoint_id, event: row.event_type, error: result.error, retryInMs: delay }, `the ${row.event_type} webhook could not be delivered; it is tried again later`)
      await scheduleRetry(db, row.id, new Date(now), new Date(now + delay), outcome)
    } catch (error) {
      // The claim runs out and the row is taken again.
      this.logError(error)
    }
  }
}
