/**
 * At most `max` actions per key within any period (e.g. one verification e-mail per address and
 * client per minute), keyed by what the caller sent, so known and unknown addresses are treated
 * alike. `wait` and `count` are synchronous: called without an await between them, no parallel
 * request can slip in.
 */
export class Cooldown {
  private readonly actedAt = new Map<string, number[]>()

  constructor(
    private readonly periodMs: number,
    private readonly clock: () => number,
    private readonly max = 1
  ) {}

  /** Seconds left before the key may act again; 0 means it may act now. Counts nothing. */
  wait(key: string): number {
    const now = this.clock()
    const recent = this.recent(key, now)
    return recent.length < this.max ? 0 : Math.ceil((recent[0]! + this.periodMs - now) / 1000)
  }

  /** Counts an action of the key now, whether or not it had to wait. */
  count(key: string): void {
    const now = this.clock()
    this.actedAt.set(key, [...this.recent(key, now), now])
    if (this.actedAt.size > 10_000) this.forgetExpired(now)
  }

  private recent(key: string, now: number): number[] {
    return (this.actedAt.get(key) ?? []).filter((at) => now - at < this.periodMs)
  }

  private forgetExpired(now: number): void {
    for (const key of [...this.actedAt.keys()]) if (this.recent(key, now).length === 0) this.actedAt.delete(key)
  }
}
