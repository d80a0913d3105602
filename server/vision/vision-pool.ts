/**
 * The public API's local models run here, off the event loop: a piscina pool of worker threads (./vision-worker.mjs),
 * one per CPU unless VISION_THREADS says otherwise, started on the first call and kept (each thread keeps the models
 * it loaded). At most MAX_WAITING tasks wait for a thread; one more is refused at once with 429 and how long the
 * queue should take to drain, never left waiting without end. A task that runs past its time is stopped: piscina ends
 * its thread (and tesseract's inside it) and starts a fresh one.
 */
import os from "node:os"

import { Piscina } from "piscina"

import { ApiError } from "../http/errors"
import type { VisionTask, VisionTaskResult } from "./vision-task"

/** Tasks waiting for a free thread at most; the bound. */
export const MAX_WAITING = 32
export const DEFAULT_TASK_TIMEOUT_MS = 60_000
/** Until a task has been timed, one is guessed to take this long. */
const FIRST_GUESS_MS = 1_000

const WORKER_URL = new URL("./vision-worker.mjs", import.meta.url).href

export interface VisionPoolOptions {
  /** Worker threads; the machine's CPUs by default. */
  threads?: number
  /** Tests only: a smaller queue and time limit. */
  maxWaiting?: number
  taskTimeoutMs?: number
}

export const defaultVisionThreads = () => Math.max(1, os.availableParallelism())

export class VisionPool {
  readonly threads: number
  private readonly maxWaiting: number
  private readonly taskTimeoutMs: number
  private pool: Piscina<VisionTask, VisionTaskResult> | null = null
  /** A moving mean of how long tasks take: what a refused caller is told to wait. */
  private meanTaskMs = FIRST_GUESS_MS

  constructor(options: VisionPoolOptions = {}) {
    this.threads = options.threads ?? defaultVisionThreads()
    this.maxWaiting = options.maxWaiting ?? MAX_WAITING
    this.taskTimeoutMs = options.taskTimeoutMs ?? DEFAULT_TASK_TIMEOUT_MS
  }

  /** Tasks waiting for a thread now. */
  get waiting(): number {
    return this.pool?.queueSize ?? 0
  }

  async run(task: VisionTask): Promise<VisionTaskResult> {
    this.pool ??= new Piscina<VisionTask, VisionTaskResult>({
      filename: WORKER_URL,
      minThreads: this.threads,
      maxThreads: this.threads,
      maxQueue: this.maxWaiting,
      // A thread keeps its models: it is not ended for being idle.
      idleTimeout: Number.MAX_SAFE_INTEGER,
      concurrentTasksPerWorker: 1
    })
    const pool = this.pool
    if (pool.queueSize >= this.maxWaiting) throw this.queueFull()
    const started = performance.now()
    try {
      const result = await pool.run(task, { signal: AbortSignal.timeout(this.taskTimeoutMs) })
      this.meanTaskMs = 0.8 * this.meanTaskMs + 0.2 * (performance.now() - started)
      return result
    } catch (error) {
      if (error instanceof Error && /queue is at limit/i.test(error.message)) throw this.queueFull()
      if (error instanceof Error && error.name === "AbortError") {
        throw new ApiError(
          503,
          "SERVICE_UNAVAILABLE",
          `The analysis took longer than ${Math.round(this.taskTimeoutMs / 1000)} seconds and was stopped. Try a smaller image, or try again later.`
        )
      }
      throw error
    }
  }

  /** Ends every thread; a call after this starts a new pool. */
  async close(): Promise<void> {
    const pool = this.pool
    this.pool = null
    await pool?.destroy()
  }

  private queueFull(): ApiError {
    // The tasks ahead, shared by the threads, at the pace tasks have been taking.
    const retryAfter = Math.max(1, Math.ceil(((this.waiting + this.threads) * this.meanTaskMs) / this.threads / 1000))
    return new ApiError(429, "RATE_LIMIT_EXCEEDED", `The server is analysing as many images as it can queue. Try again in ${retryAfter} seconds.`, {
      retryAfter
    })
  }
}
