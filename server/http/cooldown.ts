import { tooManyAttempts } from "./rate-limit"

/**
 * At most one action per key per period (e.g. one verification e-mail per address per minute),
 * keyed by what the caller sent, so known and unknown addresses are treated alike.
 */
export class Cooldown {
  private readonly lastAt = new Map<string, number>()

  constructor(
    private readonly periodMs: number,
    private readonly clock: () => number
  ) {}

  /** Seconds left before the key may act again; 0 means it may act now (and the period starts). */
  take(key: string): number {
    const now = this.clock()
    const last = this.lastAt.get(key)
    if (last !== undefined && now - last < this.periodMs) return Math.ceil((this.periodMs - (now - last)) / 1000)
    this.lastAt.set(key, now)
    if (this.lastAt.size > 10_000) this.forgetExpired(now)
    return 0
  }

  /** Lets the key act now (starting its period) or throws 429 TOO_MANY_REQUESTS with the seconds left. */
  enforce(key: string): void {
    const wait = this.take(key)
    if (wait > 0) throw tooManyAttempts(wait)
  }

  private forgetExpired(now: number): void {
    for (const [key, at] of this.lastAt) if (now - at >= this.periodMs) this.lastAt.delete(key)
  }
}
