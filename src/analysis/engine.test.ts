import { describe, expect, it } from "vitest"

import { AnalysisTimeoutError, OnceLoader, SerialQueue, withTimeout } from "./engine"

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe("withTimeout", () => {
  it("passes a result through and rejects with the given message when time runs out", async () => {
    await expect(withTimeout(Promise.resolve(7), 50, "late")).resolves.toBe(7)
    const never = new Promise<never>(() => {})
    await expect(withTimeout(never, 10, "The engine did not start.")).rejects.toThrow(new AnalysisTimeoutError("The engine did not start."))
  })
})

describe("SerialQueue", () => {
  it("runs tasks one at a time in order and keeps going after a failure", async () => {
    const queue = new SerialQueue()
    const events: string[] = []
    let running = 0
    const task = (name: string, ms: number, fail = false) => async () => {
      running += 1
      expect(running).toBe(1)
      events.push(`start ${name}`)
      await delay(ms)
      events.push(`end ${name}`)
      running -= 1
      if (fail) throw new Error(name)
      return name
    }
    const results = [queue.run(task("a", 20)), queue.run(task("b", 5, true)), queue.run(task("c", 1))]
    expect(queue.size).toBe(3)
    await expect(results[0]).resolves.toBe("a")
    await expect(results[1]).rejects.toThrow("b")
    await expect(results[2]).resolves.toBe("c")
    expect(events).toEqual(["start a", "end a", "start b", "end b", "start c", "end c"])
    expect(queue.size).toBe(0)
  })
})

describe("OnceLoader", () => {
  it("starts once for concurrent callers, reports progress to each, and retries after a failure", async () => {
    let starts = 0
    let fail = true
    const loader = new OnceLoader(async (report) => {
      starts += 1
      report({ stage: "loading", fraction: 0.5 })
      await delay(5)
      if (fail) throw new Error("no")
      return `handle ${starts}`
    })
    await expect(loader.load()).rejects.toThrow("no")
    expect(loader.started).toBe(false)

    fail = false
    const seen: string[] = []
    const [first, second] = await Promise.all([loader.load((p) => seen.push(`1:${p.stage}`)), loader.load((p) => seen.push(`2:${p.stage}`))])
    expect(first).toBe("handle 2")
    expect(second).toBe("handle 2")
    expect(starts).toBe(2)
    expect(seen).toEqual(["1:loading"])
    await expect(loader.load()).resolves.toBe("handle 2")
    expect(starts).toBe(2)

    await expect(loader.reset()).resolves.toBe("handle 2")
    await expect(loader.load()).resolves.toBe("handle 3")
  })
})
