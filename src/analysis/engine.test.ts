import { afterEach, describe, expect, it, vi } from "vitest"

import { TimeoutError } from "~core/with-timeout"

import { defineEngine, OnceLoader, SerialQueue, type AnalysisProgress, type EngineSteps } from "./engine"

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

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

describe("defineEngine", () => {
  const START_FAILED = "The test engine did not start."
  const RUN_FAILED = "The test engine took too long."
  const image = new Blob(["pixels"])

  /** A promise settled from outside, for steps that take as long as a test wants. */
  function deferred<T>() {
    let resolve!: (value: T) => void
    let reject!: (error: unknown) => void
    const promise = new Promise<T>((settle, fail) => {
      resolve = settle
      reject = fail
    })
    return { promise, resolve, reject }
  }

  /** An engine whose handles are "handle 1", "handle 2"…, that records what it frees and answers which handle ran. */
  function testEngine(overrides: Partial<EngineSteps<string, string>> = {}) {
    let starts = 0
    const freed: string[] = []
    const engine = defineEngine<string, string>({
      id: "test",
      start: async () => `handle ${++starts}`,
      startTimeoutMs: 1_000,
      startFailedMessage: START_FAILED,
      free: (handle) => {
        freed.push(handle)
      },
      run: async (handle) => `ran with ${handle}`,
      runTimeoutMs: 5_000,
      runFailedMessage: RUN_FAILED,
      ...overrides
    })
    return { engine, freed, starts: () => starts }
  }

  afterEach(() => {
    vi.useRealTimers()
  })

  it("starts once for concurrent callers and runs with that start's handle", async () => {
    const start = vi.fn(async () => {
      await delay(5)
      return "the handle"
    })
    const { engine } = testEngine({ start })
    const [, , result] = await Promise.all([engine.load(), engine.load(), engine.run(image)])
    expect(result).toBe("ran with the handle")
    await engine.load()
    await expect(engine.run(image)).resolves.toBe("ran with the handle")
    expect(start).toHaveBeenCalledTimes(1)
  })

  it("sends the start-up's progress to every caller waiting for it", async () => {
    const modelArrived = deferred<void>()
    const { engine } = testEngine({
      start: async (report) => {
        await modelArrived.promise
        report({ stage: "Loading", fraction: 0.5 })
        return "handle"
      }
    })
    const first: AnalysisProgress[] = []
    const second: AnalysisProgress[] = []
    const loads = Promise.all([engine.load((progress) => first.push(progress)), engine.load((progress) => second.push(progress))])
    modelArrived.resolve()
    await loads
    expect(first).toEqual([{ stage: "Loading", fraction: 0.5 }])
    expect(second).toEqual([{ stage: "Loading", fraction: 0.5 }])
  })

  it("forgets a failed start, keeping its error as the cause of the engine's start message, and tries again", async () => {
    const cause = new Error("the library is missing")
    let fail = true
    const { engine } = testEngine({
      start: async () => {
        if (fail) throw cause
        return "handle"
      }
    })
    const failure = await engine.load().catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(Error)
    expect((failure as Error).message).toBe(START_FAILED)
    expect((failure as Error).cause).toBe(cause)

    fail = false
    await expect(engine.run(image)).resolves.toBe("ran with handle")
  })

  it("gives up a start that takes too long with the engine's start message and frees its handle when it arrives", async () => {
    vi.useFakeTimers()
    const late = deferred<string>()
    let reportLate: ((progress: AnalysisProgress) => void) | undefined
    let starts = 0
    const { engine, freed } = testEngine({
      start: (report) => {
        starts += 1
        if (starts > 1) return Promise.resolve("prompt handle")
        reportLate = report
        return late.promise
      }
    })
    const seen: AnalysisProgress[] = []
    const loading = engine.load((progress) => seen.push(progress))
    const outcome = expect(loading).rejects.toThrow(new TimeoutError(START_FAILED))
    await vi.advanceTimersByTimeAsync(999)
    expect(freed).toEqual([])
    await vi.advanceTimersByTimeAsync(1)
    await outcome

    // The next call starts afresh; what the given-up start still reports goes nowhere.
    const retried = engine.load((progress) => seen.push(progress))
    reportLate?.({ stage: "late progress" })
    await retried
    expect(seen).toEqual([])

    late.resolve("late handle")
    await vi.advanceTimersByTimeAsync(0)
    expect(freed).toEqual(["late handle"])
    await expect(engine.run(image)).resolves.toBe("ran with prompt handle")
  })

  it("runs one image at a time, in the order asked", async () => {
    const events: string[] = []
    let running = 0
    const { engine } = testEngine({
      run: async (_handle, picture) => {
        const name = await (picture as Blob).text()
        running += 1
        events.push(`start ${name} (${running} running)`)
        await delay(name === "a" ? 20 : 1)
        running -= 1
        events.push(`end ${name}`)
        return name
      }
    })
    const results = await Promise.all([engine.run(new Blob(["a"])), engine.run(new Blob(["b"])), engine.run(new Blob(["c"]))])
    expect(results).toEqual(["a", "b", "c"])
    expect(events).toEqual(["start a (1 running)", "end a", "start b (1 running)", "end b", "start c (1 running)", "end c"])
  })

  it("stops waiting for the library's work after the run time-out with the engine's run message, and keeps the handle", async () => {
    vi.useFakeTimers()
    let stuck = true
    const { engine, freed, starts } = testEngine({
      run: (handle, _image, _options, inTime) => (stuck ? inTime(new Promise<string>(() => {})) : Promise.resolve(`ran with ${handle}`))
    })
    const running = engine.run(image)
    const outcome = expect(running).rejects.toThrow(new TimeoutError(RUN_FAILED))
    await vi.advanceTimersByTimeAsync(4_999)
    let settled = false
    void running.catch(() => (settled = true))
    await vi.advanceTimersByTimeAsync(0)
    expect(settled).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    await outcome

    stuck = false
    await expect(engine.run(image)).resolves.toBe("ran with handle 1")
    expect(starts()).toBe(1)
    expect(freed).toEqual([])
  })

  it("replaces a handle whose work failed when asked to, but not after an image that could not be read", async () => {
    let failure: "none" | "image" | "engine" = "none"
    const { engine, freed } = testEngine({
      replaceAfterFailedRun: true,
      run: async (handle, _image, _options, inTime) => {
        if (failure === "image") throw new Error("The image could not be read.")
        if (failure === "engine") return inTime(Promise.reject(new Error("the worker crashed")))
        return `ran with ${handle}`
      }
    })
    await expect(engine.run(image)).resolves.toBe("ran with handle 1")

    failure = "image"
    await expect(engine.run(image)).rejects.toThrow("The image could not be read.")
    failure = "none"
    await expect(engine.run(image)).resolves.toBe("ran with handle 1")
    expect(freed).toEqual([])

    failure = "engine"
    await expect(engine.run(image)).rejects.toThrow("the worker crashed")
    expect(freed).toEqual(["handle 1"])
    failure = "none"
    await expect(engine.run(image)).resolves.toBe("ran with handle 2")
  })

  it("keeps the handle after a failed run unless asked to replace it", async () => {
    let fail = true
    const { engine, freed } = testEngine({
      run: async (handle, _image, _options, inTime) => (fail ? inTime(Promise.reject(new Error("no result"))) : `ran with ${handle}`)
    })
    await expect(engine.run(image)).rejects.toThrow("no result")
    fail = false
    await expect(engine.run(image)).resolves.toBe("ran with handle 1")
    expect(freed).toEqual([])
  })

  it("frees the handle on dispose after the runs already queued, and starts again on the next load", async () => {
    const { engine, freed } = testEngine({
      run: async (handle) => {
        await delay(10)
        return `ran with ${handle}`
      }
    })
    const running = engine.run(image)
    await engine.dispose()
    await expect(running).resolves.toBe("ran with handle 1")
    expect(freed).toEqual(["handle 1"])

    await engine.dispose()
    expect(freed).toEqual(["handle 1"])
    await engine.load()
    await expect(engine.run(image)).resolves.toBe("ran with handle 2")
  })

  describe("with options and a prepare step", () => {
    interface Options {
      model: string
    }

    function modelEngine(prepare: EngineSteps<string, string, Options>["prepare"]) {
      return defineEngine<string, string, Options>({
        id: "models",
        start: async () => "runtime",
        startTimeoutMs: 1_000,
        startFailedMessage: START_FAILED,
        free: () => {},
        resolveOptions: (options) => {
          const model = options?.model ?? "small"
          if (model !== "small" && model !== "large") throw new Error(`Unknown model "${model}".`)
          return { model }
        },
        prepare,
        run: async (handle, _image, options) => `${handle} with ${options.model}`,
        runTimeoutMs: 5_000,
        runFailedMessage: RUN_FAILED
      })
    }

    it("prepares the resolved options before load answers, reporting to its caller, and before each run", async () => {
      const prepared: string[] = []
      const engine = modelEngine(async (handle, options, report) => {
        prepared.push(`${handle}: ${options.model}`)
        report({ stage: `Loading ${options.model}` })
      })
      const seen: string[] = []
      await engine.load((progress) => seen.push(progress.stage), { model: "large" })
      expect(seen).toEqual(["Loading large"])
      await expect(engine.run(image)).resolves.toBe("runtime with small")
      expect(prepared).toEqual(["runtime: large", "runtime: small"])

      await expect(engine.load(undefined, { model: "huge" })).rejects.toThrow('Unknown model "huge".')
      await expect(engine.run(image, { model: "huge" })).rejects.toThrow('Unknown model "huge".')
      expect(prepared).toHaveLength(2)
    })

    it("gives the prepare step's work the start time-out and message", async () => {
      vi.useFakeTimers()
      const engine = modelEngine(async (_handle, options, _report, inTime) => {
        if (options.model === "large") await inTime(new Promise<never>(() => {}))
        if (options.model === "small") await inTime(Promise.reject(new Error("404")))
      })
      const slow = engine.load(undefined, { model: "large" })
      const slowOutcome = expect(slow).rejects.toThrow(new TimeoutError(START_FAILED))
      await vi.advanceTimersByTimeAsync(1_000)
      await slowOutcome

      const broken = await engine.run(image, { model: "small" }).catch((error: unknown) => error)
      expect((broken as Error).message).toBe(START_FAILED)
      expect(((broken as Error).cause as Error).message).toBe("404")
    })
  })
})
