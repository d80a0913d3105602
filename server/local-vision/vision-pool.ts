/**
 * The public API's local models run here, off the event loop: a piscina pool of worker threads (./vision-worker.mjs),
 * one per CPU unless VISION_THREADS says otherwise (and no more than the machine's memory holds at the worst task
 * each), started on the first call and kept (each thread keeps the models it loaded). Calls wait for a thread in a
 * line fair between accounts (./fair-scheduler.ts): at most MAX_WAITING of them, each for V1_MAX_QUEUE_WAIT_MS at
 * most; one the line has no room for is refused at once with 429 and how long it should take to drain. A task that
 * runs past its time is stopped: piscina ends its thread (and tesseract's inside it) and starts a fresh one.
 */
import os from "node:os"

import { Piscina } from "piscina"

import { V1_ANALYSIS_TIME_LIMIT_MS, V1_MAX_QUEUE_WAIT_MS } from "../public-api/local-vision-schemas"

import { ApiError } from "../http/errors"
import { FairScheduler, NoTurn, SHORT_TASK_MS, type TaskGuess } from "./fair-scheduler"
import type { VisionTask, VisionTaskResult } from "./vision-task"

/** Calls waiting for a free thread at most, over all accounts. */
export const MAX_WAITING = 32
/**
 * The most memory one task takes, at its worst: an OCR of the largest image it reads (V1_OCR_MAX_IMAGE_PIXELS,
 * measured at 450 MiB of the process with tesseract's engine and model) or faces and objects of the largest image
 * (decoded in strips to a reduced copy). Threads are limited so that all of them at their worst take half the
 * machine's memory at most.
 */
export const TASK_MEMORY_MIB = 512
/** Until tasks have been timed, one is guessed to take this long, and this long per megapixel. */
const FIRST_GUESS_MS = 1_000
const FIRST_GUESS_MS_PER_MEGAPIXEL = 500
/** The least a task is guessed to take, however small its image. */
const LEAST_GUESS_MS = 50
/** Accounts whose recent task times are kept (the least recently active are forgotten first). */
const ACCOUNTS_REMEMBERED = 1_000

const WORKER_URL = new URL("./vision-worker.mjs", import.meta.url).href

export interface VisionPoolOptions {
  /** Worker threads; the machine's CPUs by default (and what its memory allows). */
  threads?: number
  /** Tests only: a smaller line and shorter times. */
  maxWaiting?: number
  maxWaitMs?: number
  taskTimeoutMs?: number
}

/** One thread per CPU, but no more than half the memory holds at TASK_MEMORY_MIB each. */
export const defaultVisionThreads = (cpus = os.availableParallelism(), memoryBytes = os.totalmem()) =>
  Math.max(1, Math.min(cpus, Math.floor(memoryBytes / 2 / (TASK_MEMORY_MIB * 1024 * 1024))))

/** Who a task is for and how big its image is: what its place in the line and its guessed cost depend on. */
export interface VisionCall {
  /** The account the call is made for: the line is fair between accounts, not keys. */
  accountId: string
  megapixels: number
  /** Aborted when the caller has left: a call still waiting gives its place up. */
  signal?: AbortSignal
}

export class VisionPool {
  readonly threads: number
  private readonly maxWaiting: number
  private readonly taskTimeoutMs: number
  private readonly maxWaitMs: number
  private readonly scheduler: FairScheduler
  private pool: Piscina<VisionTask, VisionTaskResult> | null = null
  /** A moving mean of how long tasks take: what a refused caller is told to wait. */
  private meanTaskMs = FIRST_GUESS_MS
  /** Moving means of milliseconds per megapixel, by kind of task: a running task's guessed cost. */
  private readonly msPerMegapixel = new Map<VisionTask["kind"], number>()
  /** Moving means of each account's task times, by kind ("<account> <kind>"): whether its tasks are short. */
  private readonly accountTaskMs = new Map<string, number>()

  constructor(options: VisionPoolOptions = {}) {
    this.threads = options.threads ?? defaultVisionThreads()
    this.maxWaiting = options.maxWaiting ?? MAX_WAITING
    this.taskTimeoutMs = options.taskTimeoutMs ?? V1_ANALYSIS_TIME_LIMIT_MS
    this.maxWaitMs = options.maxWaitMs ?? V1_MAX_QUEUE_WAIT_MS
    this.scheduler = new FairScheduler({ threads: this.threads, maxWaiting: this.maxWaiting, maxWaitMs: this.maxWaitMs })
  }

  /** Calls waiting for a thread now. */
  get waiting(): number {
    return this.scheduler.waiting
  }

  /** What one account has waiting and running now. */
  load(accountId: string): { waiting: number; running: number } {
    return this.scheduler.load(accountId)
  }

  async run(task: VisionTask, call: VisionCall): Promise<VisionTaskResult> {
    const turn = await this.scheduler.take(call.accountId, this.guess(task.kind, call), call.signal).catch((error: unknown) => {
      throw error instanceof NoTurn ? this.refusal(error) : error
    })
    this.pool ??= new Piscina<VisionTask, VisionTaskResult>({
      filename: WORKER_URL,
      minThreads: this.threads,
      maxThreads: this.threads,
      // The scheduler hands a task over only when a thread is free for it: piscina's own line stays empty.
      maxQueue: this.threads,
      // A thread keeps its models: it is not ended for being idle.
      idleTimeout: Number.MAX_SAFE_INTEGER,
      concurrentTasksPerWorker: 1
    })
    const started = performance.now()
    try {
      const result = await this.pool.run(task, { signal: AbortSignal.timeout(this.taskTimeoutMs) })
      this.learn(task.kind, call, performance.now() - started)
      return result
    } catch (error) {
      if (error instanceof Error && error.name === "AbortError") {
        this.learn(task.kind, call, this.taskTimeoutMs)
        throw new ApiError(
          503,
          "SERVICE_UNAVAILABLE",
          `The analysis took longer than ${Math.round(this.taskTimeoutMs / 1000)} seconds and was stopped. Try a smaller image, or try again later.`
        )
      }
      throw error
    } finally {
      turn.end()
    }
  }

  /** Ends every thread; a call after this starts a new pool. */
  async close(): Promise<void> {
    const pool = this.pool
    this.pool = null
    await pool?.destroy()
  }

  /** The task's guessed cost, from the pace of its kind; short when its account's recent tasks of the kind were. */
  private guess(kind: VisionTask["kind"], { accountId, megapixels }: VisionCall): TaskGuess {
    const estimateMs = Math.min(this.taskTimeoutMs, Math.max(LEAST_GUESS_MS, megapixels * (this.msPerMegapixel.get(kind) ?? FIRST_GUESS_MS_PER_MEGAPIXEL)))
    // An account that has not yet shown its tasks of this kind to be short is not taken at its word.
    const accountMs = this.accountTaskMs.get(`${accountId} ${kind}`)
    return { estimateMs, short: accountMs !== undefined && accountMs < SHORT_TASK_MS }
  }

  private learn(kind: VisionTask["kind"], { accountId, megapixels }: VisionCall, ms: number): void {
    this.meanTaskMs = 0.8 * this.meanTaskMs + 0.2 * ms
    const perMegapixel = ms / Math.max(megapixels, 0.01)
    this.msPerMegapixel.set(kind, 0.8 * (this.msPerMegapixel.get(kind) ?? perMegapixel) + 0.2 * perMegapixel)
    const key = `${accountId} ${kind}`
    const previous = this.accountTaskMs.get(key)
    // Re-inserted, so that the map's order is of last activity; the least recent goes when it is full.
    this.accountTaskMs.delete(key)
    this.accountTaskMs.set(key, previous === undefined ? ms : 0.7 * previous + 0.3 * ms)
    if (this.accountTaskMs.size > ACCOUNTS_REMEMBERED) this.accountTaskMs.delete(this.accountTaskMs.keys().next().value!)
  }

  private refusal({ reason }: NoTurn): ApiError {
    // The calls ahead, shared by the threads, at the pace tasks have been taking.
    const retryAfter = Math.max(1, Math.ceil(((this.waiting + this.threads) * this.meanTaskMs) / this.threads / 1000))
    if (reason === "waited-too-long") {
      return new ApiError(
        503,
        "SERVICE_UNAVAILABLE",
        `The server is analysing more images than it can start within ${Math.round(this.maxWaitMs / 1000)} seconds. Try again in ${retryAfter} seconds.`,
        { retryAfter }
      )
    }
    // "left": nobody reads this answer; it ends the call's work without a thread.
    return new ApiError(429, "RATE_LIMIT_EXCEEDED", `The server is analysing as many images as it can queue. Try again in ${retryAfter} seconds.`, {
      retryAfter
    })
  }
}
