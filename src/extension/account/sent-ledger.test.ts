import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"

import { DAY_MS } from "~core/time"

import { createExtensionApiClient, endExtensionSession, openExtensionSession, saveExtensionSession } from "./extension-session"
import { createFakeChrome, type FakeChrome } from "../browser/fake-chrome.test-support"
import {
  dataUrlBytes,
  describeSent,
  fetchRecorded,
  recordSent,
  SENT_LEDGER_LIMIT,
  sentLedgerItem,
  setSentFromPage,
  type SentEntry
} from "./sent-ledger"

const API = "https://api.test"
const NOW = Date.UTC(2026, 10, 25, 9, 0, 0)

/**
 * The Web Locks API as Chrome gives it to every page and the worker of one extension (happy-dom has none): one queue
 * per name, shared by whoever holds this manager.
 */
function sharedLockManager(): LockManager {
  const queues = new Map<string, Promise<unknown>>()
  return {
    request: (name: string, task: () => Promise<unknown>) => {
      const run = (queues.get(name) ?? Promise.resolve()).then(task)
      queues.set(
        name,
        run.catch(() => {})
      )
      return run
    }
  } as unknown as LockManager
}

let fake: FakeChrome
beforeEach(async () => {
  vi.useFakeTimers({ toFake: ["Date"] })
  vi.setSystemTime(NOW)
  fake = createFakeChrome()
  vi.stubGlobal("chrome", fake)
  await fake.storage.local.set({ apiOrigin: API })
  setSentFromPage(undefined)
})
afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

const stored = () => fake.storage.local.items.get("sentLedger") as SentEntry[] | undefined

describe("what each request to our server is, and how much it carries", () => {
  it("measures a question's image as the server decodes it, and counts its text with the earlier turns", () => {
    const bytes = new Uint8Array(120_345).map((_, index) => index % 251)
    const dataUrl = `data:image/jpeg;base64,${Buffer.from(bytes).toString("base64")}`
    expect(dataUrlBytes(dataUrl)).toBe(120_345)
    const history = [{ question: "Who?", answer: "Three people." }]
    expect(describeSent({ method: "POST", path: "/api/analyze/ask", json: { image: { dataUrl }, question: "Where is this? 🏖", model: "gpt-4o-mini", history } })).toEqual({
      kind: "question",
      imageBytes: 120_345,
      // The emoji is one character, as a person counts.
      textChars: "Where is this? 🏖".length - 1 + "Who?".length + "Three people.".length
    })
  })

  it("counts a translation's text, and names each other request", () => {
    expect(describeSent({ method: "POST", path: "/api/analyze/translate", json: { text: "Ausfahrt freihalten", targetLanguage: "en" } })).toEqual({ kind: "translation", textChars: 19 })
    // An image's lines: the characters of its lines, one line break between each two.
    expect(describeSent({ method: "POST", path: "/api/analyze/translate", json: { lines: ["Ausfahrt", "freihalten"], targetLanguage: "en" } })).toEqual({ kind: "translation", textChars: 19 })
    // Several images' lines (translate images on this page): each image's lines as above, one line break between images.
    expect(
      describeSent({ method: "POST", path: "/api/analyze/translate-images", json: { images: [{ lines: ["Ausfahrt", "freihalten"] }, { lines: ["Ausgang"] }], targetLanguage: "en" } })
    ).toEqual({ kind: "translation", textChars: 27, detail: "Text of 2 images" })
    expect(describeSent({ method: "POST", path: "/api/analyze/translate-images", json: { images: [{ lines: ["Ausgang"] }], targetLanguage: "en" } })).toEqual({
      kind: "translation",
      textChars: 7,
      detail: "Text of 1 image"
    })
    expect(describeSent({ method: "GET", path: "/api/ocr/languages/hin" })).toEqual({ kind: "languagePack", detail: "hin" })
    const kinds = [
      ["GET", "/api/ocr/languages", "languageList"],
      ["POST", "/api/auth/extension-session", "signIn"],
      ["POST", "/api/auth/logout", "signOut"],
      ["POST", "/api/auth/refresh", "sessionRenewal"],
      ["GET", "/api/analyze/usage", "usage"],
      ["GET", "/api/status", "serviceStatus"]
    ] as const
    for (const [method, path, kind] of kinds) expect(describeSent({ method, path })).toEqual({ kind })
    expect(describeSent({ method: "DELETE", path: "/api/somewhere/new" })).toEqual({ kind: "other", detail: "DELETE /api/somewhere/new" })
  })
})

describe("the record on the device", () => {
  it("keeps entries newest first with the page's host, and drops those past 30 days on write and on read", async () => {
    await recordSent({ method: "POST", path: "/api/analyze/translate", json: { text: "old" } }, { now: NOW - 31 * DAY_MS, host: "old.example" })
    await recordSent({ method: "POST", path: "/api/analyze/translate", json: { text: "recent" } }, { now: NOW - 29 * DAY_MS, host: "recent.example" })
    setSentFromPage("https://news.example:8443/article?id=1")
    await recordSent({ method: "GET", path: "/api/analyze/usage" })
    // The write dropped the entry past 30 days; the other two stay, newest first.
    expect(stored()!.map((entry) => entry.host)).toEqual(["news.example:8443", "recent.example"])

    vi.setSystemTime(NOW + 2 * DAY_MS)
    // Read two days later, the entry of 29 days ago is past 30 days: not shown, though still stored until the next write.
    expect((await sentLedgerItem.get()).map((entry) => entry.host)).toEqual(["news.example:8443"])
    expect(stored()).toHaveLength(2)
  })

  it("keeps the newest SENT_LEDGER_LIMIT entries", async () => {
    const many = Array.from({ length: SENT_LEDGER_LIMIT }, (_, index): SentEntry => ({ at: NOW - 1000 - index, kind: "usage", host: null }))
    await sentLedgerItem.set(many)
    await recordSent({ method: "GET", path: "/api/status" })
    const kept = await sentLedgerItem.get()
    expect(kept).toHaveLength(SENT_LEDGER_LIMIT)
    expect(kept[0]).toMatchObject({ kind: "serviceStatus", at: NOW })
    expect(kept.at(-1)!.at).toBe(NOW - 1000 - (SENT_LEDGER_LIMIT - 2))
  })

  it("loses no entry when several panels write a burst at once", async () => {
    vi.stubGlobal("navigator", { ...navigator, locks: sharedLockManager() })
    // Two extension pages: two copies of the module, each with its own state, one chrome.storage and one lock manager.
    const panels = [await import("./sent-ledger")]
    vi.resetModules()
    panels.push(await import("./sent-ledger"))
    expect(panels[0]).not.toBe(panels[1])
    panels[0]!.setSentFromPage("https://a.example/")
    panels[1]!.setSentFromPage("https://b.example/")
    const burst = panels.flatMap((panel) => Array.from({ length: 40 }, (_, index) => panel.recordSent({ method: "POST", path: "/api/analyze/translate", json: { text: "x".repeat(index + 1) } })))
    await Promise.all(burst)
    const kept = await sentLedgerItem.get()
    expect(kept).toHaveLength(80)
    for (const host of ["a.example", "b.example"]) {
      expect(
        kept
          .filter((entry) => entry.host === host)
          .map((entry) => entry.textChars)
          .sort((a, b) => a! - b!)
      ).toEqual(Array.from({ length: 40 }, (_, index) => index + 1))
    }
  })
})

describe("recorded where the requests go out", () => {
  const answers: Record<string, unknown> = {
    "/api/auth/extension-session": { user: { email: "ada@example.com" }, token: "ext-a", refreshToken: "ext-refresh-a", expiresAt: Math.floor(NOW / 1000) + 3600 },
    "/api/auth/logout": { loggedOut: true },
    "/api/analyze/translate": { translation: "Keep clear", targetLanguage: "en", usage: { used: 1, limit: 10 } }
  }
  const serverFetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = new URL(new Request(input, init).url).pathname
    return Response.json({ success: true, data: answers[path] ?? null })
  }) as typeof fetch

  /** The record once the writes the requests started are done. */
  const recorded = (count: number) =>
    vi.waitFor(async () => {
      const entries = await sentLedgerItem.get()
      expect(entries).toHaveLength(count)
      return entries
    })

  it("records the extension client's calls: a sign-in from the worker, a translation from the panel, a sign-out", async () => {
    await openExtensionSession("site-token", { apiOrigin: API, fetch: serverFetch })
    setSentFromPage("https://shop.example/item/7")
    await createExtensionApiClient({ fetch: serverFetch }).post("/api/analyze/translate", { text: "Ausfahrt freihalten", targetLanguage: "en" })
    setSentFromPage(undefined)
    await endExtensionSession(serverFetch)
    const entries = await recorded(3)
    expect(entries.map(({ kind, host, textChars }) => ({ kind, host, textChars }))).toEqual([
      { kind: "signOut", host: null, textChars: undefined },
      { kind: "translation", host: "shop.example", textChars: 19 },
      { kind: "signIn", host: null, textChars: undefined }
    ])
  })

  it("records nothing for a call refused unsent while signed out", async () => {
    await expect(createExtensionApiClient({ fetch: serverFetch }).post("/api/analyze/translate", { text: "x" })).rejects.toMatchObject({ code: "SIGNED_OUT" })
    await saveExtensionSession({ user: { name: "Ada", email: "ada@example.com", role: "user", provider: "email" }, token: "t", refreshToken: "r", expiresAt: NOW + 3_600_000 })
    await createExtensionApiClient({ fetch: serverFetch }).get("/api/analyze/usage")
    expect((await recorded(1)).map((entry) => entry.kind)).toEqual(["usage"])
  })

  it("records a language pack's download, which does not go through the client", async () => {
    vi.stubGlobal("fetch", async () => new Response(new Uint8Array(3)))
    await fetchRecorded(`${API}/api/ocr/languages/jpn_vert`)
    expect((await recorded(1))[0]).toMatchObject({ kind: "languagePack", detail: "jpn_vert" })
  })
})
