import { describe, expect, it, vi } from "vitest"

import { idlePeriod, readLoop, whenDocumentShown, whenPageQuiet, type ReadLoopParts, type ReadOutcome, type ReadTarget } from "./read-loop"

const reading = (text: string) => ({ text, labels: [], faces: 0 })

/** A loop over `urls` whose page says how far each image is from the view; `read` can be replaced. */
function parts(urls: string[], distances: Record<string, number>, overrides: Partial<ReadLoopParts> = {}) {
  const done = new Map<string, ReadOutcome>()
  const order: string[] = []
  let targets: ReadTarget[] = urls.map((url) => ({ url, tabId: 1, frameId: 0 }))
  const loop: ReadLoopParts = {
    targets: () => targets,
    isDone: (url) => done.has(url),
    distances: async () => new Map(Object.entries(distances)),
    read: async (target) => reading(`text of ${target.url}`),
    onStart: (url) => order.push(url),
    onRead: (url, outcome) => done.set(url, outcome),
    whenShown: async () => {},
    pageQuiet: async () => {},
    idle: async () => {},
    orderRefreshMs: 60_000,
    ...overrides
  }
  return { loop, done, order, setTargets: (next: string[]) => (targets = next.map((url) => ({ url }))) }
}

describe("the reading loop of Find in images", () => {
  it("reads every image once, those in view first, then the nearest; images the page does not place come last", async () => {
    const { loop, done, order } = parts(["a", "b", "c", "d", "e"], { a: 2400, b: 0, c: 300, d: 0 })
    await readLoop(loop, new AbortController().signal)
    expect(order).toEqual(["b", "d", "c", "a", "e"])
    expect(done.get("c")).toEqual({ status: "read", reading: reading("text of c") })
  })

  it("records an image that cannot be read with the reason in words, and goes on", async () => {
    const { loop, done, order } = parts(["a", "b"], { a: 0, b: 10 }, {
      read: async (target) => {
        if (target.url === "a") throw new Error("The image could not be downloaded (the site answered 404).")
        return reading("b")
      }
    })
    await readLoop(loop, new AbortController().signal)
    expect(order).toEqual(["a", "b"])
    expect(done.get("a")).toEqual({ status: "failed", message: "The image could not be downloaded (the site answered 404)." })
    expect(done.get("b")?.status).toBe("read")
  })

  it("asks the page again where images are once the order is old: the user scrolls meanwhile", async () => {
    let now = 0
    let asked = 0
    const { loop, order } = parts(["a", "b", "c"], {}, {
      now: () => now,
      orderRefreshMs: 3000,
      distances: async () => {
        asked++
        // After the first question the user scrolled down: c is in view now.
        return new Map(asked === 1 ? [["a", 0], ["b", 100], ["c", 900]] : [["a", 0], ["b", 900], ["c", 0]])
      },
      read: async (target) => {
        now += 3000
        return reading(target.url)
      }
    })
    await readLoop(loop, new AbortController().signal)
    expect(order).toEqual(["a", "c", "b"])
    expect(asked).toBe(3)
  })

  it("asks again when the list gains an image the page has not placed yet", async () => {
    let asked = 0
    const { loop, order, setTargets } = parts(["a", "b"], {}, {
      distances: async () => {
        asked++
        return new Map(asked === 1 ? [["a", 0], ["b", 500]] : [["a", 0], ["b", 500], ["d", 0]])
      },
      read: async (target) => {
        if (target.url === "a") setTargets(["a", "b", "d"])
        return reading(target.url)
      }
    })
    await readLoop(loop, new AbortController().signal)
    expect(order).toEqual(["a", "d", "b"])
    expect(asked).toBe(2)
  })

  it("stops after the image being read when stopped, and reads nothing while the panel is hidden", async () => {
    const controller = new AbortController()
    let shown!: () => void
    const panelShown = new Promise<void>((resolve) => (shown = resolve))
    let hidden = true
    const { loop, order, done } = parts(["a", "b", "c"], { a: 0, b: 1, c: 2 }, {
      whenShown: (signal) => (hidden ? Promise.race([panelShown, new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve()))]) : Promise.resolve()),
      read: async (target) => {
        if (target.url === "b") controller.abort()
        return reading(target.url)
      }
    })
    const running = readLoop(loop, controller.signal)
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(order).toEqual([])
    hidden = false
    shown()
    await running
    expect(order).toEqual(["a", "b"])
    expect([...done.keys()]).toEqual(["a", "b"])
  })

  it("reads each image once when two loops share the list, though both asked the page at the same moment", async () => {
    const inFlight = new Set<string>()
    const { loop, done, order } = parts(["a", "b", "c"], {}, {
      // The page answers after a moment: both loops are waiting for it with the same unread images.
      distances: () => new Promise((resolve) => setTimeout(() => resolve(new Map([["a", 0], ["b", 10], ["c", 20]])), 5)),
      read: async (target) => {
        await new Promise((resolve) => setTimeout(resolve, 5))
        return reading(target.url)
      }
    })
    const shared: ReadLoopParts = {
      ...loop,
      isDone: (url) => done.has(url) || inFlight.has(url),
      onStart: (url) => {
        inFlight.add(url)
        loop.onStart(url)
      },
      onRead: (url, outcome) => {
        inFlight.delete(url)
        loop.onRead(url, outcome)
      }
    }
    const signal = new AbortController().signal
    await Promise.all([readLoop(shared, signal), readLoop(shared, signal)])
    expect(order).toEqual(["a", "b", "c"])
    expect([...done.keys()].sort()).toEqual(["a", "b", "c"])
  })
})

describe("waiting for a quiet page", () => {
  /** A page whose quiet time follows a script of answers; the sleeps move the clock. */
  function page(answers: number[]) {
    let now = 0
    const sleeps: number[] = []
    const asked = { count: 0 }
    const quietFor = async () => answers[Math.min(asked.count++, answers.length - 1)]!
    const options = {
      quietMs: 1000,
      longestWaitMs: 10_000,
      now: () => now,
      sleep: async (ms: number) => {
        sleeps.push(ms)
        now += ms
      }
    }
    return { quietFor, options, sleeps, asked }
  }

  it("reads at once on a page left alone, and waits out the rest of the moment on one just scrolled", async () => {
    const still = page([1e9])
    await whenPageQuiet(still.quietFor, new AbortController().signal, still.options)
    expect(still.sleeps).toEqual([])

    // Scrolled 300 ms ago, then again meanwhile (100 ms before the second question), then left alone.
    const scrolled = page([300, 100, 1000])
    await whenPageQuiet(scrolled.quietFor, new AbortController().signal, scrolled.options)
    expect(scrolled.sleeps).toEqual([700, 900])
    expect(scrolled.asked.count).toBe(3)
  })

  it("reads one image at the latest after the longest wait on a page that never stops, and counts a page that cannot be asked as quiet", async () => {
    const ticker = page([0])
    await whenPageQuiet(ticker.quietFor, new AbortController().signal, ticker.options)
    expect(ticker.sleeps.reduce((sum, ms) => sum + ms, 0)).toBe(10_000)

    const gone = page([])
    await whenPageQuiet(() => Promise.reject(new Error("no page index")), new AbortController().signal, gone.options)
    expect(gone.sleeps).toEqual([])
  })

  it("gives up the wait when the reading is stopped, and the loop reads nothing before the page is quiet", async () => {
    const controller = new AbortController()
    const waiting = whenPageQuiet(async () => 0, controller.signal, { quietMs: 1000, longestWaitMs: 60_000 })
    controller.abort()
    await expect(waiting).resolves.toBeUndefined()

    let quiet!: () => void
    const pageQuiet = new Promise<void>((resolve) => (quiet = resolve))
    const { loop, order } = parts(["a"], { a: 0 }, { pageQuiet: () => pageQuiet })
    const running = readLoop(loop, new AbortController().signal)
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(order).toEqual([])
    quiet()
    await running
    expect(order).toEqual(["a"])
  })
})

describe("waiting for the panel", () => {
  it("waits while the document is hidden and goes on when it is shown again", async () => {
    let state: DocumentVisibilityState = "hidden"
    const page = Object.defineProperty(new EventTarget(), "visibilityState", { get: () => state }) as unknown as Document
    let resolved = false
    const waiting = whenDocumentShown(new AbortController().signal, page).then(() => (resolved = true))
    page.dispatchEvent(new Event("visibilitychange"))
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect(resolved).toBe(false)
    state = "visible"
    page.dispatchEvent(new Event("visibilitychange"))
    await waiting
    expect(resolved).toBe(true)
  })

  it("gives up an idle wait when the reading is stopped", async () => {
    // happy-dom has no idle callbacks: one that never comes.
    vi.stubGlobal("requestIdleCallback", () => 1)
    vi.stubGlobal("cancelIdleCallback", () => {})
    const controller = new AbortController()
    const waiting = idlePeriod(controller.signal, 60_000)
    controller.abort()
    await expect(waiting).resolves.toBeUndefined()
    vi.unstubAllGlobals()
  })
})
