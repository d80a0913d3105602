/**
 * The vision pool's line, on its own: turns handed out by least thread time between accounts, a thread always left
 * for another account, waiting places shared, waits bounded, and places given up by callers who left.
 */
import { describe, expect, it } from "vitest"

import { FairScheduler, NoTurn, SHORT_TASK_MS, type Turn } from "./fair-scheduler"

/** A scheduler on a clock the test moves. */
function schedulerOf(options: { threads: number; maxWaiting?: number; maxWaitMs?: number }) {
  let now = 0
  const scheduler = new FairScheduler({ maxWaiting: 32, maxWaitMs: 60_000, ...options, now: () => now })
  const started: string[] = []
  const turns = new Map<string, Turn>()
  /** Asks for a turn for call `name` of `account` (`short`: its account's tasks have been); recorded when given. */
  const ask = (account: string, name: string, signal?: AbortSignal, short = false) => {
    const asked = scheduler.take(account, { estimateMs: 100, short }, signal).then((turn) => {
      started.push(name)
      turns.set(name, turn)
      return turn
    })
    // A call a test leaves waiting is refused when its wait runs out, after the test: in a busy run that can be while
    // another file runs in this worker, where an unheeded refusal is reported against that file.
    asked.catch(() => {})
    return asked
  }
  /** Ends call `name`'s turn after it ran `ms`, and lets the next turns be given. */
  const finish = async (name: string, ms = 100) => {
    now += ms
    turns.get(name)!.end()
    await Promise.resolve()
  }
  const settled = () => new Promise((resolve) => setTimeout(resolve, 0))
  const wait = (ms: number) => (now += ms)
  return { scheduler, started, ask, finish, settled, wait }
}

const reasonOf = (promise: Promise<unknown>) => promise.then(() => "started", (error: unknown) => (error instanceof NoTurn ? error.reason : String(error)))

describe("the vision pool's fair line", () => {
  it("serves a new account's call before an account's 20th waiting one", async () => {
    const { ask, finish, started, settled } = schedulerOf({ threads: 1 })
    for (let index = 1; index <= 20; index++) void ask("flood", `flood-${index}`)
    void ask("newcomer", "newcomer-1")
    await settled()
    expect(started).toEqual(["flood-1"])
    await finish("flood-1")
    await settled()
    expect(started).toEqual(["flood-1", "newcomer-1"])
  })

  it("charges each account the thread time its tasks took: a cheap account's calls are not held behind an expensive one's", async () => {
    const { ask, finish, started, settled } = schedulerOf({ threads: 1 })
    for (let index = 1; index <= 5; index++) void ask("heavy", `heavy-${index}`)
    for (let index = 1; index <= 5; index++) void ask("light", `light-${index}`)
    await settled()
    // Each heavy task holds the thread 10 times as long as a light one: the light account gets about 10 turns for one.
    await finish("heavy-1", 1_000)
    await settled()
    for (let index = 1; index <= 5; index++) {
      expect(started.at(-1)).toBe(`light-${index}`)
      await finish(`light-${index}`, 100)
      await settled()
    }
    expect(started).toEqual(["heavy-1", "light-1", "light-2", "light-3", "light-4", "light-5", "heavy-2"])
  })

  it("takes turns between equal accounts, and keeps a thread for another account however many calls one sends", async () => {
    const { scheduler, ask, finish, started, settled } = schedulerOf({ threads: 3 })
    for (let index = 1; index <= 6; index++) void ask("a", `a-${index}`)
    await settled()
    // Two of three threads at most for one account.
    expect(started).toEqual(["a-1", "a-2"])
    expect(scheduler.load("a")).toEqual({ waiting: 4, running: 2 })
    for (let index = 1; index <= 3; index++) void ask("b", `b-${index}`)
    await settled()
    expect(started).toEqual(["a-1", "a-2", "b-1"])
    await finish("a-1")
    await finish("b-1")
    await settled()
    expect(started.slice(3)).toEqual(["b-2", "a-3"])
  })

  it("gives a single account every thread for tasks it has shown to be short, and keeps the last one from it while one of its tasks runs long", async () => {
    const { ask, finish, started, settled, wait } = schedulerOf({ threads: 2 })
    for (let index = 1; index <= 4; index++) void ask("a", `a-${index}`, undefined, true)
    await settled()
    expect(started).toEqual(["a-1", "a-2"])
    // a-2 is done soon; a-1 runs on past a second: a-3 may have a thread, a-4 not the last one.
    await finish("a-2", 10)
    await settled()
    expect(started).toEqual(["a-1", "a-2", "a-3"])
    wait(SHORT_TASK_MS + 1)
    await finish("a-3", 1)
    await settled()
    expect(started).toEqual(["a-1", "a-2", "a-3"])
    // Another account takes the free thread at once.
    void ask("b", "b-1")
    await settled()
    expect(started.at(-1)).toBe("b-1")
  })

  it("shares the waiting places: a newcomer takes the last place of the account holding the most, never one it would then out-hold", async () => {
    const { scheduler, ask, settled } = schedulerOf({ threads: 1, maxWaiting: 4 })
    void ask("flood", "flood-running")
    const flood = [1, 2, 3, 4].map((index) => reasonOf(ask("flood", `flood-${index}`)))
    await settled()
    expect(scheduler.waiting).toBe(4)
    const first = reasonOf(ask("b", "b-1"))
    const second = reasonOf(ask("c", "c-1"))
    await settled()
    // The flood's two newest gave their places up; b and c wait.
    expect(scheduler.load("flood").waiting).toBe(2)
    expect(await Promise.race([flood[3], settled().then(() => "waiting")])).toBe("evicted")
    expect(await Promise.race([flood[2], settled().then(() => "waiting")])).toBe("evicted")
    // Now b holds one place and the flood two: b's second would hold as many as the flood after taking it.
    expect(await reasonOf(ask("b", "b-2"))).toBe("full")
    expect(await reasonOf(ask("flood", "flood-5"))).toBe("full")
    expect(scheduler.waiting).toBe(4)
    void first
    void second
  })

  it("refuses a call that waited longer than the bound, and frees the place of a caller who left", async () => {
    const { scheduler, ask, settled } = schedulerOf({ threads: 1, maxWaitMs: 50 })
    void ask("a", "a-running")
    const waited = reasonOf(ask("a", "a-2"))
    const leaving = new AbortController()
    const left = reasonOf(ask("b", "b-1", leaving.signal))
    await settled()
    expect(scheduler.waiting).toBe(2)
    leaving.abort()
    expect(await left).toBe("left")
    expect(scheduler.waiting).toBe(1)
    expect(await waited).toBe("waited-too-long")
    expect(scheduler.waiting).toBe(0)
    // A caller gone before asking gets no place at all.
    expect(await reasonOf(ask("c", "c-1", AbortSignal.abort()))).toBe("left")
  })

  it("counts a turn ended twice once", async () => {
    const { scheduler, ask, started, settled } = schedulerOf({ threads: 1 })
    const turn = await ask("a", "a-1")
    void ask("b", "b-1")
    void ask("c", "c-1")
    await settled()
    turn.end()
    turn.end()
    await settled()
    // One thread: b runs, c still waits.
    expect(started).toEqual(["a-1", "b-1"])
    expect(scheduler.waiting).toBe(1)
  })
})
