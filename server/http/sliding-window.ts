/**
 * At most `max` events per key in any window of `windowMs`, counted in this process. Checking and
 * recording happen in one synchronous step, so requests running in parallel cannot all pass a
 * check made before any of them was counted.
 */
export class SlidingWindowCounter {
  private readonly events = new Map<string, number[]>()

  constructor(
    readonly max: number,
    readonly windowMs: number,
    private readonly clock: () => number
  ) {}

  /** Whether the key may have one more event now. */
  available(key: string): boolean {
    return this.recent(key, this.clock()).length < this.max
  }

  /** Counts an event for the key, whether or not it was available. */
  record(key: string): void {
    const now = this.clock()
    const times = this.recent(key, now)
    times.push(now)
    this.events.set(key, times)
    if (this.events.size > 10_000) this.forgetExpired(now)
  }

  /** Counts an event and answers true, or answers false and counts nothing when the key is at its limit. */
  take(key: string): boolean {
    if (!this.available(key)) return false
    this.record(key)
    return true
  }

  /** Takes back the key's latest event: a reservation that turned out not to count. */
  release(key: string): void {
    const times = this.events.get(key)
    times?.pop()
    if (times?.length === 0) this.events.delete(key)
  }

  /** Whole seconds until the key may have an event again; 0 when it may now. */
  retryAfterSeconds(key: string): number {
    const now = this.clock()
    const times = this.recent(key, now)
    if (times.length < this.max) return 0
    return Math.max(1, Math.ceil((times[times.length - this.max]! + this.windowMs - now) / 1000))
  }

  private recent(key: string, now: number): number[] {
    const times = this.events.get(key)
    if (!times) return []
    const kept = times.filter((time) => now - time < this.windowMs)
    if (kept.length) this.events.set(key, kept)
    else this.events.delete(key)
    return kept
  }

  private forgetExpired(now: number): void {
    for (const key of [...this.events.keys()]) this.recent(key, now)
  }
}
