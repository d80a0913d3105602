/**
 * Turns on the vision pool's threads, shared fairly between accounts. piscina's own queue is one line for everybody,
 * first come first served, in which one account's flood of calls makes every other customer wait or be refused; no
 * library in reach schedules by account (p-queue and piscina order by priority or arrival), so this is the line in
 * front of the pool, and piscina is given a task only when a thread is free for it.
 *
 * - **Order**: the account that has had the least thread time goes next (each account's "virtual time": the thread
 *   milliseconds its tasks took, charged when each ends, plus an estimate for those still running), its own calls in
 *   the order they came. An account that arrives, or comes back after being idle, starts level with the least-served
 *   active account: served next, but owed nothing for its absence. An expensive image (many pixels, or noise that
 *   keeps tesseract busy a minute) costs its account what it took, not one turn.
 * - **A share of the threads**: one account runs on all threads but one at most, so a newcomer finds a thread free
 *   however many calls another account keeps going; it takes the last free thread too only for a task it has shown to
 *   be short (the caller says so: its recent tasks of the kind took under a second) while none of its running tasks
 *   has run long, so that a single customer still gets the whole machine and a newcomer waits a second at most for
 *   it. (An account's first long tasks, before they have shown what they are, may all start at once: once.)
 * - **A share of the waiting places**: when every place is taken, a newcomer takes the last place of the account
 *   holding the most (that call is refused as a full queue refuses), unless it would then hold as many itself.
 * - **A bound on waiting**: a call not started within `maxWaitMs` is refused, not left waiting without end.
 * - A caller that leaves (its signal aborts) gives its place up at once.
 */

export type Refusal = "full" | "evicted" | "waited-too-long" | "left"

/** Why a call got no turn; the pool answers each in the wrapper. */
export class NoTurn extends Error {
  constructor(readonly reason: Refusal) {
    super(`No turn on the vision pool: ${reason}`)
  }
}

/** What a caller knows of a task before it runs. */
export interface TaskGuess {
  /** Its guessed thread time: charged to its account while it runs. */
  estimateMs: number
  /** Whether its account's recent tasks of this kind were short: it may take the last free thread. */
  short: boolean
}

/** A task running this long, or guessed to, is not short: its account leaves the last thread to others. */
export const SHORT_TASK_MS = 1_000

/** A task's turn on a thread: end() when the task has ended, once (a second call does nothing). */
export interface Turn {
  end(): void
}

export interface FairSchedulerOptions {
  threads: number
  /** Calls waiting for a thread at most, over all accounts. */
  maxWaiting: number
  maxWaitMs: number
  /** Milliseconds, for thread time; performance.now by default. */
  now?: () => number
}

interface Waiter {
  guess: TaskGuess
  start(): void
  refuse(reason: Refusal): void
}

interface Account {
  /** Thread milliseconds of its ended tasks, from the level it joined at. */
  virtualMs: number
  running: number
  /** Estimated milliseconds of its running tasks, charged until they end. */
  runningEstimateMs: number
  /** When each of its running tasks started. */
  runningSince: Set<number>
  waiting: Waiter[]
}

export class FairScheduler {
  private readonly accounts = new Map<string, Account>()
  private running = 0
  private waitingCount = 0
  private readonly now: () => number
  /** Threads one account may hold at once. */
  private readonly accountThreads: number

  constructor(private readonly options: FairSchedulerOptions) {
    this.now = options.now ?? (() => performance.now())
    this.accountThreads = Math.max(1, options.threads - 1)
  }

  /** Calls waiting for a thread now. */
  get waiting(): number {
    return this.waitingCount
  }

  /** Calls of `accountId` waiting and running now (tests and the benchmark read it). */
  load(accountId: string): { waiting: number; running: number } {
    const account = this.accounts.get(accountId)
    return { waiting: account?.waiting.length ?? 0, running: account?.running ?? 0 }
  }

  /** Waits for a turn of `accountId` on a thread; throws NoTurn when there is none to give. */
  take(accountId: string, guess: TaskGuess, signal?: AbortSignal): Promise<Turn> {
    if (signal?.aborted) return Promise.reject(new NoTurn("left"))
    const account = this.accountFor(accountId)
    if (this.waitingCount >= this.options.maxWaiting && !this.makeRoomFor(account)) {
      this.forgetIfIdle(accountId, account)
      return Promise.reject(new NoTurn("full"))
    }
    return new Promise<Turn>((resolve, reject) => {
      const leave = () => settle("left")
      const timer = setTimeout(() => settle("waited-too-long"), this.options.maxWaitMs)
      timer.unref?.()
      const waiter: Waiter = {
        guess,
        start: () => {
          cleanUp()
          resolve(this.begin(accountId, account, guess.estimateMs))
        },
        refuse: (reason) => {
          cleanUp()
          reject(new NoTurn(reason))
        }
      }
      const cleanUp = () => {
        clearTimeout(timer)
        signal?.removeEventListener("abort", leave)
      }
      /** Out of the line without a turn (time out, or the caller left). */
      const settle = (reason: Refusal) => {
        const index = account.waiting.indexOf(waiter)
        if (index === -1) return
        account.waiting.splice(index, 1)
        this.waitingCount--
        waiter.refuse(reason)
        this.forgetIfIdle(accountId, account)
      }
      signal?.addEventListener("abort", leave, { once: true })
      account.waiting.push(waiter)
      this.waitingCount++
      this.dispatch()
    })
  }

  private accountFor(accountId: string): Account {
    let account = this.accounts.get(accountId)
    if (!account) {
      // Level with the least-served account in the line: first in turn, but with no credit saved up.
      let level = Infinity
      for (const other of this.accounts.values()) level = Math.min(level, other.virtualMs)
      account = { virtualMs: Number.isFinite(level) ? level : 0, running: 0, runningEstimateMs: 0, runningSince: new Set(), waiting: [] }
      this.accounts.set(accountId, account)
    }
    return account
  }

  /** Frees a waiting place for `newcomer` by refusing the newest call of the account holding the most, when fair. */
  private makeRoomFor(newcomer: Account): boolean {
    let fullest: Account | null = null
    for (const account of this.accounts.values()) {
      if (!fullest || account.waiting.length > fullest.waiting.length) fullest = account
    }
    if (!fullest || fullest === newcomer || fullest.waiting.length <= newcomer.waiting.length + 1) return false
    const evicted = fullest.waiting.pop()!
    this.waitingCount--
    evicted.refuse("evicted")
    return true
  }

  /** Starts the waiting calls the free threads can take, least-served account first. */
  private dispatch(): void {
    while (this.running < this.options.threads) {
      let next: Account | null = null
      for (const account of this.accounts.values()) {
        if (account.waiting.length === 0 || !this.mayStart(account)) continue
        if (!next || account.virtualMs + account.runningEstimateMs < next.virtualMs + next.runningEstimateMs) next = account
      }
      if (!next) return
      const waiter = next.waiting.shift()!
      this.waitingCount--
      waiter.start()
    }
  }

  /** Whether the account's next waiting task may start on a free thread now. */
  private mayStart(account: Account): boolean {
    if (account.running < this.accountThreads) return true
    if (account.running >= this.options.threads || !account.waiting[0]!.guess.short) return false
    const now = this.now()
    for (const since of account.runningSince) if (now - since > SHORT_TASK_MS) return false
    return true
  }

  private begin(accountId: string, account: Account, estimateMs: number): Turn {
    this.running++
    account.running++
    account.runningEstimateMs += estimateMs
    // A distinct key per task: two starting in the same millisecond are two.
    let started = this.now()
    while (account.runningSince.has(started)) started += 1e-6
    account.runningSince.add(started)
    let ended = false
    return {
      end: () => {
        if (ended) return
        ended = true
        this.running--
        account.running--
        account.runningSince.delete(started)
        account.runningEstimateMs -= estimateMs
        account.virtualMs += this.now() - started
        this.forgetIfIdle(accountId, account)
        this.dispatch()
      }
    }
  }

  private forgetIfIdle(accountId: string, account: Account): void {
    if (account.running === 0 && account.waiting.length === 0 && this.accounts.get(accountId) === account) this.accounts.delete(accountId)
  }
}
