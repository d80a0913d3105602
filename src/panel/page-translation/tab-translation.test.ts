import { describe, expect, it, vi } from "vitest"

import type { PageImageTranslation } from "~extension/messaging/page-translation-messages"

import type { ReadTarget } from "../find/read-loop"
import type { SentOutcome, Taken } from "./batches"
import type { ImageText } from "./image-lines"
import { NOT_SCRIPTABLE_MESSAGE, TabTranslation, type PageState, type TabTranslationParts } from "./tab-translation"

const colours = { background: [255, 255, 255] as const, ink: [0, 0, 0] as const }
const textOf = (url: string, lines = 1): ImageText => ({
  url,
  imageWidth: 400,
  imageHeight: 300,
  lines: Array.from({ length: lines }, (_, index) => ({ text: `${url} line ${index}`, bbox: { x0: 0, y0: index * 20, x1: 100, y1: index * 20 + 18 }, vertical: false, ...colours }))
})

interface Deferred<T> {
  promise: Promise<T>
  resolve: (value: T) => void
  reject: (error: unknown) => void
}
function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void
  let reject!: (error: unknown) => void
  const promise = new Promise<T>((yes, no) => ([resolve, reject] = [yes, no]))
  return { promise, resolve, reject }
}

/**
 * A tab of images `urls` at `distances` from the view. Reads and requests answer at once unless the test holds them
 * (`holdReads`, `holdSends`); an image in `noText` has no line with letters.
 */
function tab(urls: string[], distances: Record<string, number> = {}, options: { holdReads?: boolean; holdSends?: boolean; noText?: string[]; lines?: Record<string, number>; parts?: Partial<TabTranslationParts> } = {}) {
  let targets: ReadTarget[] = urls.map((url) => ({ url, tabId: 1, frameId: 0 }))
  const memory = new Map<string, PageImageTranslation>()
  const started: string[] = []
  const reading = new Map<string, Deferred<ImageText | null>>()
  let atOnce = 0
  let mostAtOnce = 0
  const sent: string[][] = []
  const sending: { taken: Taken<{ lines: readonly string[] }>; answer: Deferred<SentOutcome> }[] = []
  const shown: string[] = []
  const states: PageState[] = []
  const calls = { prepare: 0, clear: 0 }
  const answerFor = (taken: Taken<{ lines: readonly string[] }>): SentOutcome => ({ targetLanguage: "fr", lines: taken.images.map(({ lines }) => lines.map((line) => `fr ${line}`)) })
  const parts: TabTranslationParts = {
    targets: () => targets,
    distances: async () => new Map(Object.entries(distances)),
    kept: async (url) => memory.get(url) ?? null,
    read: async (target) => {
      started.push(target.url)
      mostAtOnce = Math.max(mostAtOnce, ++atOnce)
      try {
        if (options.holdReads) {
          const held = deferred<ImageText | null>()
          reading.set(target.url, held)
          return await held.promise
        }
        return options.noText?.includes(target.url) ? null : textOf(target.url, options.lines?.[target.url])
      } finally {
        atOnce--
      }
    },
    send: async (taken) => {
      sent.push(taken.images.map(({ lines }) => lines[0]!.split(" ")[0]!))
      if (!options.holdSends) return answerFor(taken)
      const answer = deferred<SentOutcome>()
      sending.push({ taken, answer })
      return answer.promise
    },
    keep: (url, translation) => void memory.set(url, translation),
    prepare: async () => void calls.prepare++,
    show: (target) => void shown.push(target.url),
    state: (state) => void states.push(state),
    clear: () => void calls.clear++,
    whenShown: async () => {},
    pageQuiet: async () => {},
    idle: async () => {},
    orderRefreshMs: 60_000,
    gatherMs: 30,
    signedOutMessage: "Sign in to translate the images on this page.",
    upgradeUrl: () => "https://iqa.example/pricing",
    ...options.parts
  }
  const translation = new TabTranslation(parts)
  translation.setActive(true)
  return {
    translation,
    memory,
    started,
    reading,
    sent,
    sending,
    shown,
    states,
    calls,
    mostAtOnce: () => mostAtOnce,
    answerFor,
    setTargets(next: string[]) {
      targets = next.map((url) => ({ url, tabId: 1, frameId: 0 }))
      translation.refresh()
    },
    lastState: () => states.at(-1)
  }
}

const until = (check: () => void) => vi.waitFor(check, { timeout: 2000, interval: 2 })

describe("translating a tab's images", () => {
  it("reads the images in view first, then the nearest below, two at once and never more, and shows each translation", async () => {
    const page = tab(["far", "in-view", "near", "farther"], { far: 900, "in-view": 0, near: 300, farther: 1500 }, { holdReads: true })
    page.translation.turnOn()
    await until(() => expect(page.started).toEqual(["in-view", "near"]))
    // Nothing more starts while two are read.
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(page.started).toHaveLength(2)
    page.reading.get("in-view")!.resolve(textOf("in-view"))
    await until(() => expect(page.started).toEqual(["in-view", "near", "far"]))
    for (const url of ["near", "far"]) page.reading.get(url)!.resolve(textOf(url))
    await until(() => expect(page.started).toHaveLength(4))
    page.reading.get("farther")!.resolve(textOf("farther"))
    await until(() => expect(page.lastState()).toMatchObject({ status: "done", done: 4, total: 4, showing: true }))
    expect(page.mostAtOnce()).toBe(2)
    expect(page.shown.sort()).toEqual(["far", "farther", "in-view", "near"])
    expect(page.memory.get("near")).toEqual({
      imageWidth: 400,
      imageHeight: 300,
      language: "fr",
      lines: [{ text: "fr near line 0", bbox: { x0: 0, y0: 0, x1: 100, y1: 18 }, vertical: false, ...colours }]
    })
  })

  it("says on the page how far it has come: the script is there first, then the state", async () => {
    const page = tab(["a", "b"], {}, { holdSends: true })
    page.translation.turnOn()
    await until(() => expect(page.sending).toHaveLength(1))
    expect(page.calls.prepare).toBe(1)
    expect(page.lastState()).toEqual({ showing: true, status: "translating", done: 0, total: 2 })
    page.sending[0]!.answer.resolve(page.answerFor(page.sending[0]!.taken))
    await until(() => expect(page.sending).toHaveLength(2))
    expect(page.lastState()).toEqual({ showing: true, status: "translating", done: 1, total: 2 })
  })

  it("sends the images read while a request is out together in the next one, one request at a time", async () => {
    const page = tab(["a", "b", "c", "d", "big"], { a: 0, b: 10, c: 20, d: 30, big: 40 }, { holdSends: true, lines: { big: 60 } })
    page.translation.turnOn()
    await until(() => expect(page.sending).toHaveLength(1))
    // The rest are read meanwhile.
    await until(() => expect(page.started).toHaveLength(5))
    expect(page.sent).toEqual([["a"]])
    page.sending[0]!.answer.resolve(page.answerFor(page.sending[0]!.taken))
    await until(() => expect(page.sending).toHaveLength(2))
    // The image of 60 lines goes alone, after those that fit together.
    expect(page.sent).toEqual([["a"], ["b", "c", "d"]])
    page.sending[1]!.answer.resolve(page.answerFor(page.sending[1]!.taken))
    await until(() => expect(page.sending).toHaveLength(3))
    expect(page.sending[2]!.taken).toMatchObject({ kind: "alone" })
    page.sending[2]!.answer.resolve(page.answerFor(page.sending[2]!.taken))
    await until(() => expect(page.lastState()).toMatchObject({ status: "done", done: 5, total: 5 }))
  })

  it("after the first request, lets a read image wait a moment for the one read beside it: one request for both", async () => {
    const page = tab(["a", "b", "c", "d", "e"], { a: 0, b: 10, c: 20, d: 30, e: 40 }, { holdReads: true, parts: { gatherMs: 400 } })
    page.translation.turnOn()
    await until(() => expect(page.started).toEqual(["a", "b"]))
    // The first goes at once: the first translation on screen does not wait.
    page.reading.get("a")!.resolve(textOf("a"))
    await until(() => expect(page.sent).toEqual([["a"]]))
    await until(() => expect(page.started).toEqual(["a", "b", "c"]))
    page.reading.get("b")!.resolve(textOf("b"))
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(page.sent).toEqual([["a"]])
    page.reading.get("c")!.resolve(textOf("c"))
    await until(() => expect(page.sent).toEqual([["a"], ["b", "c"]]))
    // Alone at the end of the moment when the other read takes longer.
    await until(() => expect(page.started).toEqual(["a", "b", "c", "d", "e"]))
    page.reading.get("d")!.resolve(textOf("d"))
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(page.sent).toHaveLength(2)
    await until(() => expect(page.sent).toEqual([["a"], ["b", "c"], ["d"]]))
    page.reading.get("e")!.resolve(textOf("e"))
    await until(() => expect(page.sent).toEqual([["a"], ["b", "c"], ["d"], ["e"]]))
  })

  it("reads nothing while the page is being scrolled", async () => {
    let scrolling = deferred<void>()
    const page = tab(["a", "b"], {}, { parts: { pageQuiet: () => scrolling.promise } })
    page.translation.turnOn()
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(page.started).toEqual([])
    scrolling.resolve()
    scrolling = deferred<void>()
    scrolling.resolve()
    await until(() => expect(page.lastState()).toMatchObject({ status: "done", done: 2, total: 2 }))
  })

  it("translates images added to the page while the mode is on", async () => {
    const page = tab(["a"])
    page.translation.turnOn()
    await until(() => expect(page.lastState()).toMatchObject({ status: "done", done: 1, total: 1 }))
    page.setTargets(["a", "lazy-1", "lazy-2"])
    await until(() => expect(page.lastState()).toMatchObject({ status: "done", done: 3, total: 3 }))
    expect(page.started).toEqual(["a", "lazy-1", "lazy-2"])
    expect(page.shown).toEqual(["a", "lazy-1", "lazy-2"])
  })

  it("leaves an image with no text alone, quietly: not sent, not shown, not counted", async () => {
    const page = tab(["photo", "sign"], {}, { noText: ["photo"] })
    page.translation.turnOn()
    await until(() => expect(page.lastState()).toMatchObject({ status: "done", done: 1, total: 1 }))
    expect(page.sent).toEqual([["sign"]])
    expect(page.shown).toEqual(["sign"])
  })

  it("shows a translation made before without reading or sending anything", async () => {
    const page = tab(["a", "b"])
    page.memory.set("a", { imageWidth: 1, imageHeight: 1, language: "fr", lines: [] })
    page.translation.turnOn()
    await until(() => expect(page.lastState()).toMatchObject({ status: "done", done: 2, total: 2 }))
    expect(page.started).toEqual(["b"])
    expect(page.sent).toEqual([["b"]])
    expect(page.shown.sort()).toEqual(["a", "b"])
  })

  it("keeps the rest original when the quota runs out part-way, says why with the Upgrade link, and reads no more", async () => {
    const page = tab(["a", "b", "c"], { a: 0, b: 10, c: 20 }, { holdSends: true })
    page.translation.turnOn()
    await until(() => expect(page.sending).toHaveLength(1))
    page.sending[0]!.answer.resolve(page.answerFor(page.sending[0]!.taken))
    await until(() => expect(page.sending).toHaveLength(2))
    page.sending[1]!.answer.resolve({ targetLanguage: "fr", lines: [["fr b"], null], quotaMessage: "You have used all 10 AI requests of your plan this month." })
    await until(() =>
      expect(page.lastState()).toEqual({ showing: true, status: "quota", done: 2, total: 3, message: "You have used all 10 AI requests of your plan this month.", upgradeUrl: "https://iqa.example/pricing" })
    )
    expect(page.shown).toEqual(["a", "b"])
    page.setTargets(["a", "b", "c", "later"])
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(page.started).toEqual(["a", "b", "c"])
    expect(page.sending).toHaveLength(2)
  })

  it("stops at a refusal of the whole request: the quota, or a person signed out (told to sign in)", async () => {
    const quota = tab(["a"], {}, { parts: { send: () => Promise.reject(Object.assign(new Error("All 10 requests used."), { quotaExceeded: true })) } })
    quota.translation.turnOn()
    await until(() => expect(quota.lastState()).toMatchObject({ status: "quota", message: "All 10 requests used.", upgradeUrl: "https://iqa.example/pricing", done: 0 }))

    const signedOut = tab(["a"], {}, { parts: { send: () => Promise.reject(Object.assign(new Error("Not signed in"), { signedOut: true })) } })
    signedOut.translation.turnOn()
    await until(() => expect(signedOut.lastState()).toEqual({ showing: true, status: "error", done: 0, total: 1, message: "Sign in to translate the images on this page." }))
  })

  it("stops reading at Stop, keeps what is shown, sends nothing more, and goes on at Continue", async () => {
    const page = tab(["a", "b", "c", "d"], { a: 0, b: 10, c: 20, d: 30 }, { holdReads: true })
    page.translation.turnOn()
    await until(() => expect(page.started).toEqual(["a", "b"]))
    page.reading.get("a")!.resolve(textOf("a"))
    await until(() => expect(page.shown).toEqual(["a"]))
    // The loop that read a has gone on to c meanwhile.
    expect(page.started).toEqual(["a", "b", "c"])
    page.translation.stop()
    page.reading.get("b")!.resolve(textOf("b"))
    page.reading.get("c")!.resolve(textOf("c"))
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(page.started).toEqual(["a", "b", "c"])
    expect(page.sent).toEqual([["a"]])
    expect(page.calls.clear).toBe(0)
    expect(page.lastState()).toMatchObject({ status: "stopped", done: 1, total: 4 })

    page.translation.resume()
    await until(() => expect(page.started).toEqual(["a", "b", "c", "d"]))
    page.reading.get("d")!.resolve(textOf("d"))
    await until(() => expect(page.lastState()).toMatchObject({ status: "done", done: 4, total: 4 }))
    // b and c, read before Stop, are sent without being read again.
    expect(page.sent.flat().sort()).toEqual(["a", "b", "c", "d"])
  })

  it("still reads two at most when Continue comes while the reads of before Stop are not done", async () => {
    const page = tab(["a", "b", "c", "d"], { a: 0, b: 10, c: 20, d: 30 }, { holdReads: true })
    page.translation.turnOn()
    await until(() => expect(page.started).toEqual(["a", "b"]))
    page.translation.stop()
    page.translation.resume()
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(page.started).toEqual(["a", "b"])
    page.reading.get("a")!.resolve(textOf("a"))
    page.reading.get("b")!.resolve(textOf("b"))
    await until(() => expect(page.started).toEqual(["a", "b", "c", "d"]))
    expect(page.mostAtOnce()).toBe(2)
  })

  it("shows the originals and back, from the command or the badge, without reading or sending anything again", async () => {
    const page = tab(["a", "b"])
    page.translation.turnOn()
    await until(() => expect(page.lastState()).toMatchObject({ status: "done", done: 2 }))
    const work = () => ({ started: [...page.started], sent: [...page.sent], shown: [...page.shown] })
    const before = work()
    page.translation.toggle()
    expect(page.lastState()).toMatchObject({ showing: false, status: "done", done: 2, total: 2 })
    expect(page.translation.snapshot()).toMatchObject({ on: true, showing: false })
    page.translation.toggle()
    expect(page.lastState()).toMatchObject({ showing: true, status: "done", done: 2, total: 2 })
    page.translation.setShowing(false)
    page.translation.setShowing(true)
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(work()).toEqual(before)

    // Turned off, the page is cleared; on again, the translations come back from what was kept.
    page.translation.turnOff()
    expect(page.calls.clear).toBe(1)
    expect(page.translation.snapshot().on).toBe(false)
    page.translation.turnOn()
    await until(() => expect(page.shown).toEqual([...before.shown, "a", "b"]))
    expect(page.started).toEqual(before.started)
    expect(page.sent).toEqual(before.sent)
  })

  it("reads nothing while the panel shows another tab, and shows everything again in a reloaded page", async () => {
    const page = tab(["a"])
    page.translation.setActive(false)
    page.translation.turnOn()
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(page.started).toEqual([])
    page.translation.setActive(true)
    await until(() => expect(page.shown).toEqual(["a"]))
    page.translation.pageChanged()
    await until(() => expect(page.shown).toEqual(["a", "a"]))
    expect(page.calls.prepare).toBe(2)
    expect(page.started).toEqual(["a"])
  })

  it("says so when the browser keeps the extension out of the page", async () => {
    const page = tab(["a"], {}, { parts: { prepare: () => Promise.reject(new Error("Cannot access contents of the page")) } })
    page.translation.turnOn()
    await until(() => expect(page.translation.snapshot()).toMatchObject({ on: true, status: "error", message: NOT_SCRIPTABLE_MESSAGE }))
  })
})
