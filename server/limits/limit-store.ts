/**
 * Counters of events per key in a sliding window, shared by every API instance: kept in the database (embedded or
 * PostgreSQL), or in Redis when REDIS_URL is set, never in one process's memory. Per-IP rate limits, resend
 * cooldowns, feedback confirmations and failed image downloads all count here, so a limit reached through one
 * instance holds on the others. Checking and counting are one atomic step in the store: 20 parallel requests
 * against a limit of 5 get exactly 5.
 */
export interface LimitStore {
  /**
   * Counts one event for `key` at `now` when fewer than `max` were counted in the `windowMs` before it; answers
   * whether it was counted, and when not, the milliseconds until one more may be.
   */
  take(key: string, max: number, windowMs: number, now: number): Promise<LimitAnswer>
  /** Takes back the key's latest event: a reservation that turned out not to count. */
  release(key: string): Promise<void>
  /** Forgets keys whose every event has left its window (a sweep; limits hold without it). */
  sweep(now: number): Promise<void>
  close(): Promise<void>
}

export type LimitAnswer = { taken: true; count: number } | { taken: false; retryAfterMs: number }

/** Whole seconds to wait, at least 1, for a refused answer. */
export const retryAfterSeconds = (answer: Extract<LimitAnswer, { taken: false }>) => Math.max(1, Math.ceil(answer.retryAfterMs / 1000))

/**
 * Takes one event from each of several limits, or none: a later refusal gives back the events already taken.
 * Answers null when all were taken, else the index of the limit that refused and its answer.
 */
export async function takeAll(
  store: LimitStore,
  limits: readonly { key: string; max: number; windowMs: number }[],
  now: number
): Promise<{ refusedBy: number; answer: Extract<LimitAnswer, { taken: false }> } | null> {
  const taken: string[] = []
  for (const [index, limit] of limits.entries()) {
    const answer = await store.take(limit.key, limit.max, limit.windowMs, now)
    if (!answer.taken) {
      for (const key of taken.reverse()) await store.release(key)
      return { refusedBy: index, answer }
    }
    taken.push(limit.key)
  }
  return null
}
