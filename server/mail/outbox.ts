/**
 * Every e-mail goes through the transactional outbox: `queueEmail(app, db, mail)` writes it as a row in `db`, the
 * transaction of the change that causes it, so an e-mail is promised exactly when the change is made, and a crash
 * loses neither. `queueRequest` stores a request for an e-mail whose answer must not tell whether an account exists
 * (a password reset): the caller answers at once, the same for every address, and the worker does the look-up.
 *
 * A worker in every instance claims due rows with FOR UPDATE SKIP LOCKED under a lease it keeps renewing while it
 * sends: instances never send a row twice, and the rows of a worker that died are taken over once its lease runs out
 * (on the embedded database, which one process uses, at once on the next start). A failed send is retried with
 * exponential backoff for more than a day, then given up with a log line. Written here rather than with pg-boss or
 * graphile-worker: both need a node-postgres connection of their own and cannot run on the embedded PGlite database,
 * and the e-mail must be written by the caller's own Kysely transaction, which neither can join.
 */
import type { FastifyBaseLogger } from "fastify"
import type { Kysely, Transaction } from "kysely"

import { DAY_MS } from "~core/time"

import type { DatabaseSchema } from "../db/schema"
import type { Db } from "../db/transaction"
import type { EmailContent } from "./email-templates"
import type { Mailer } from "./mailer"
import { claimDue, extendClaims, insertMessage, insertRequest, markFailed, markSent, purgeDone, releaseAllClaims, scheduleRetry, turnIntoMessage, type OutboxRow } from "./outbox-store"

declare module "fastify" {
  interface FastifyInstance {
    outbox: Outbox
  }
}

export interface QueuedEmail {
  to: string
  /** What the e-mail is, for logs ("password reset", "subscription started"); never its content. */
  what: string
  content: EmailContent
}

/** Turns a stored request into the e-mail it calls for (in the worker's transaction), or into nothing. */
export type RequestResolver = (trx: Transaction<DatabaseSchema>, address: string) => Promise<QueuedEmail | null>

export interface OutboxTimings {
  /**
   * How soon a worker looks for due rows again after a look that found some (it is also woken by every local
   * queueing). Each look that finds none doubles the wait, up to idlePollMs: an idle server's look at the database
   * (about 30 ms of CPU on the embedded one) every second was 3 % of a core for nothing.
   */
  pollMs: number
  /** The longest wait between two looks: how late an idle worker finds a retry come due or a dead worker's claims. */
  idlePollMs: number
  /** How long a claim lasts unless renewed; renewed every third of it while the worker sends. */
  leaseMs: number
  /** The first retry's delay; each next one doubles, up to maxRetryMs. */
  firstRetryMs: number
  maxRetryMs: number
  /** A row still failing this long after it was written is given up. */
  giveUpAfterMs: number
  /** Sent or given-up rows are forgotten after this. */
  keepDoneMs: number
}

export const DEFAULT_OUTBOX_TIMINGS: OutboxTimings = {
  pollMs: 1_000,
  idlePollMs: 8_000,
  leaseMs: 20_000,
  firstRetryMs: 30_000,
  maxRetryMs: 60 * 60_000,
  giveUpAfterMs: DAY_MS + 2 * 60 * 60_000,
  keepDoneMs: 7 * DAY_MS
}

/**
 * When a row queued in a transaction is looked for again if a look finds nothing: the delays after the first look.
 * The transaction commits after the rest of its request's work, on PostgreSQL often after that look; without these
 * the row waited for the next poll, which an idle worker makes up to idlePollMs apart.
 */
const UNTIL_COMMIT_MS = [25, 100, 400, 1_600]

/** Rows one claim takes; they are sent one after another, in the order they were queued. */
const BATCH = 10
const PURGE_EVERY_MS = 10 * 60_000

export async function queueEmail(app: { outbox: Outbox; clock: () => number }, db: Db, mail: QueuedEmail): Promise<void> {
  await insertMessage(db, { to: mail.to, what: mail.what, subject: mail.content.subject, text: mail.content.text }, new Date(app.clock()))
  app.outbox.wake(db.isTransaction)
}

/** Stores a request for an e-mail that a resolver registered under `what` decides on. */
export async function queueRequest(app: { outbox: Outbox; clock: () => number }, db: Db, request: { address: string; what: string }): Promise<void> {
  await insertRequest(db, request, new Date(app.clock()))
  app.outbox.wake(db.isTransaction)
}

/** A failure the mail server says is final (a 5xx reply: no such mailbox, say): retrying cannot help. */
function isPermanent(error: unknown): boolean {
  const code = (error as { responseCode?: unknown }).responseCode
  return typeof code === "number" && code >= 500 && code < 600
}

/** The kind of a failure, for the row and the logs: never a message that could quote an address or the mail. */
function failureKind(error: unknown): string {
  const { code, responseCode } = error as { code?: unknown; responseCode?: unknown }
  return [typeof code === "string" ? code : error instanceof Error ? error.name : "Error", typeof responseCode === "number" ? responseCode : null].filter(Boolean).join(" ")
}

export class Outbox {
  private readonly resolvers = new Map<string, RequestResolver>()
  private timer: NodeJS.Timeout | null = null
  private pollDelayMs: number
  private woken: NodeJS.Immediate | null = null
  /** The next look for rows queued in transactions not yet committed (one schedule, whichever queueing was last). */
  private untilCommit: NodeJS.Timeout | null = null
  private running: Promise<number> | null = null
  private again = false
  private closed = false
  private lastPurge = 0

  constructor(
    private readonly deps: { db: Kysely<DatabaseSchema>; mailer: Mailer; log: FastifyBaseLogger; clock: () => number; timings: OutboxTimings; singleProcess: boolean }
  ) {
    this.pollDelayMs = deps.timings.pollMs
  }

  /** Registers what answers the requests stored under `what`. */
  onRequest(what: string, resolver: RequestResolver): void {
    this.resolvers.set(what, resolver)
  }

  /** Starts polling. With a database no other process uses, claims left by a crashed run are freed first. */
  async start(): Promise<void> {
    if (this.deps.singleProcess) await releaseAllClaims(this.deps.db)
    this.schedulePoll()
    this.wake()
  }

  private schedulePoll(): void {
    if (this.closed) return
    this.timer = setTimeout(() => {
      void this.pass()
        .then((handled) => {
          const { pollMs, idlePollMs } = this.deps.timings
          this.pollDelayMs = handled > 0 ? pollMs : Math.min(idlePollMs, this.pollDelayMs * 2)
        })
        .catch((error: unknown) => this.deps.log.error({ err: error }, "the e-mail outbox could not be read"))
        .finally(() => this.schedulePoll())
    }, this.pollDelayMs)
    this.timer.unref()
  }

  /**
   * Looks for due rows soon. `inTransaction`: the caller queued in a transaction not yet committed, so a look that
   * finds nothing is made again a few times over the next two seconds (UNTIL_COMMIT_MS).
   */
  wake(inTransaction = false): void {
    if (inTransaction) this.lookUntilFound(0)
    if (this.closed || this.woken) return
    this.woken = setImmediate(() => {
      this.woken = null
      void this.pass().catch((error: unknown) => this.deps.log.error({ err: error }, "the e-mail outbox could not be read"))
    })
  }

  /** A queueing in a transaction starts the schedule again, from its first delay: its rows are the newest. */
  private lookUntilFound(attempt: number): void {
    if (this.untilCommit) clearTimeout(this.untilCommit)
    this.untilCommit = null
    const delay = UNTIL_COMMIT_MS[attempt]
    if (this.closed || delay === undefined) return
    this.untilCommit = setTimeout(() => {
      this.untilCommit = null
      void this.pass()
        // Unless a newer queueing has started the schedule again meanwhile.
        .then((handled) => handled === 0 && this.untilCommit === null && this.lookUntilFound(attempt + 1))
        .catch((error: unknown) => this.deps.log.error({ err: error }, "the e-mail outbox could not be read"))
    }, delay)
    this.untilCommit.unref()
  }

  /** Settles once every row due now has been sent, answered or given its retry time: what tests wait for. */
  async idle(): Promise<void> {
    for (;;) {
      if (this.running) await this.running.catch(() => 0)
      if ((await this.pass()) === 0) return
    }
  }

  /** Stops polling and finishes the rows it holds. */
  async close(): Promise<void> {
    this.closed = true
    if (this.timer) clearTimeout(this.timer)
    if (this.woken) clearImmediate(this.woken)
    if (this.untilCommit) clearTimeout(this.untilCommit)
    await this.running?.catch(() => 0)
  }

  /** One pass: claims a batch of due rows and handles them; answers how many it handled. One pass runs at a time. */
  private pass(): Promise<number> {
    if (this.running) {
      this.again = true
      return this.running
    }
    const run = this.claimAndHandle().finally(() => {
      this.running = null
      if (this.again && !this.closed) {
        this.again = false
        this.wake()
      }
    })
    this.running = run
    return run
  }

  private async claimAndHandle(): Promise<number> {
    const { db, clock, timings } = this.deps
    if (clock() - this.lastPurge > PURGE_EVERY_MS) {
      this.lastPurge = clock()
      await purgeDone(db, new Date(clock() - timings.keepDoneMs))
    }
    const rows = await claimDue(db, new Date(clock()), timings.leaseMs, BATCH)
    if (rows.length === 0) return 0
    // Rows about: look again soon, whoever woke this pass.
    this.pollDelayMs = timings.pollMs
    const pending = new Set(rows.map((row) => row.id))
    const renewal = setInterval(() => {
      void extendClaims(db, [...pending], new Date(clock() + timings.leaseMs)).catch(() => {})
    }, timings.leaseMs / 3)
    try {
      for (const row of rows) {
        await this.handle(row)
        pending.delete(row.id)
      }
    } finally {
      clearInterval(renewal)
    }
    // A full batch may have left more behind.
    if (rows.length === BATCH) this.again = true
    return rows.length
  }

  private async handle(row: OutboxRow): Promise<void> {
    const { db, clock } = this.deps
    try {
      const message = row.kind === "request" ? await this.answerRequest(row) : row
      if (!message) return await markSent(db, row.id, new Date(clock()))
      await this.deps.mailer.send({ to: message.recipient, subject: message.subject ?? "", text: message.body ?? "" })
      await markSent(db, row.id, new Date(clock()))
      this.deps.log.info({ outboxId: row.id }, `${message.what} email sent through ${this.deps.mailer.description}`)
    } catch (error) {
      await this.failed(row, error)
    }
  }

  /** The request's answer, made a message of this row in one transaction with what it needs (a one-time code, say). */
  private async answerRequest(row: OutboxRow): Promise<OutboxRow | null> {
    const resolver = this.resolvers.get(row.what)
    if (!resolver) throw new Error(`no resolver for ${row.what} requests`)
    return this.deps.db.transaction().execute(async (trx) => {
      const mail = await resolver(trx, row.recipient)
      if (!mail) return null
      const message = { to: mail.to, what: mail.what, subject: mail.content.subject, text: mail.content.text }
      await turnIntoMessage(trx, row.id, message)
      return { ...row, kind: "message" as const, recipient: mail.to, what: mail.what, subject: message.subject, body: message.text }
    })
  }

  private async failed(row: OutboxRow, error: unknown): Promise<void> {
    const { db, clock, timings, log } = this.deps
    const now = clock()
    const kind = failureKind(error)
    const tooLong = now - row.created_at.getTime() >= timings.giveUpAfterMs
    if (isPermanent(error) || tooLong) {
      log.error({ outboxId: row.id, what: row.what, error: kind }, `the ${row.what} e-mail was given up after ${row.attempts} attempt(s) through ${this.deps.mailer.description}`)
      await markFailed(db, row.id, new Date(now), kind)
      return
    }
    const delay = Math.min(timings.maxRetryMs, timings.firstRetryMs * 2 ** Math.max(0, row.attempts - 1))
    log.warn({ outboxId: row.id, what: row.what, error: kind, retryInMs: delay }, `the ${row.what} e-mail could not be sent through ${this.deps.mailer.description}; it is tried again later`)
    await scheduleRetry(db, row.id, new Date(now + delay), kind)
  }
}
