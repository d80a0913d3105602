/**
 * "Sent from this device": a record, kept on this device only, of every request the extension makes to our server:
 * when, what kind, how much of the user's own content went with it (image bytes, text characters) and from which
 * page's host. Written where the requests go out (the extension's API client and the one download outside it, see
 * extension-session.ts and fetchRecorded), never by the features that make them.
 *
 * Every extension context (each window's side panel, the popup, the service worker) writes here at once: each
 * read-modify-write runs under one Web Lock, which all the extension's pages and its worker share (same origin), so
 * a burst of requests from several panels loses no entry.
 */
import * as z from "zod"

import type { OutgoingRequest } from "~http/http-client"
import { countOf } from "~core/format"
import { DAY_MS } from "~core/time"

import { storageItem } from "../storage/storage-item"

/** Entries older than this are dropped, on every write and every read. */
export const SENT_LEDGER_MAX_AGE_MS = 30 * DAY_MS
/** At most this many entries are kept (the newest): a busy month cannot fill chrome.storage. */
export const SENT_LEDGER_LIMIT = 500
/** Web Locks name shared by every extension context that writes the ledger. */
const SENT_LEDGER_LOCK = "image-query-ai-sent-ledger"

export const SENT_KINDS = ["question", "translation", "languagePack", "languageList", "signIn", "signOut", "sessionRenewal", "usage", "profile", "organizationLogo", "serviceStatus", "other"] as const
export type SentKind = (typeof SENT_KINDS)[number]

export const SENT_KIND_LABELS: Record<SentKind, string> = {
  question: "Question",
  translation: "Translation",
  languagePack: "Language pack",
  languageList: "Language list",
  signIn: "Sign-in",
  signOut: "Sign-out",
  sessionRenewal: "Session renewal",
  usage: "Usage check",
  profile: "Account check",
  organizationLogo: "Organisation logo",
  serviceStatus: "Service status",
  other: "Other request"
}

const sentEntrySchema = z.object({
  /** Milliseconds since the epoch. */
  at: z.number(),
  kind: z.enum(SENT_KINDS),
  /** The host of the page the panel showed, null for requests made away from a page (the popup, signing in). */
  host: z.string().nullable(),
  /** Bytes of the image sent, as the server receives them (decoded from the data: URL). */
  imageBytes: z.number().optional(),
  /** Characters of the user's text sent: a question with the earlier turns of its chat, a text to translate. */
  textChars: z.number().optional(),
  /** Which request of its kind: the path for "other", the language pack's code. */
  detail: z.string().optional()
})

export type SentEntry = z.infer<typeof sentEntrySchema>

const isFresh = (entry: SentEntry, now: number) => now - entry.at < SENT_LEDGER_MAX_AGE_MS

/** Newest first. Unreadable entries (an older format, a hand edit) are dropped one by one, as are those past 30 days. */
export const sentLedgerItem = storageItem<SentEntry[]>({
  key: "sentLedger",
  schema: z.array(z.unknown()).transform((stored) => {
    const now = Date.now()
    return stored.flatMap((entry) => sentEntrySchema.safeParse(entry).data ?? []).filter((entry) => isFresh(entry, now))
  }),
  fallback: []
})

/** Characters as a person counts them (an emoji is one), the same in the notice before sending and in the record. */
export const characterCount = (text: string): number => Array.from(text).length

/** The bytes a data: URL carries (what the server decodes), without decoding it. */
export function dataUrlBytes(dataUrl: string): number {
  const comma = dataUrl.indexOf(",")
  if (comma < 0) return 0
  const payload = dataUrl.slice(comma + 1)
  if (!/;base64$/i.test(dataUrl.slice(0, comma))) return decodeURIComponent(payload).length
  const padding = payload.endsWith("==") ? 2 : payload.endsWith("=") ? 1 : 0
  return Math.max(0, Math.floor((payload.length * 3) / 4) - padding)
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null
const text = (value: unknown): string => (typeof value === "string" ? value : "")

type SentRequest = Pick<OutgoingRequest, "method" | "path" | "json">
type SentContent = Pick<SentEntry, "kind" | "imageBytes" | "textChars" | "detail">

const PACK_PATH = /^\/api\/ocr\/languages\/([^/]+)$/
const LOGO_PATH = /^\/api\/organizations\/[^/]+\/logo\/[^/]+$/

/** What a request to our server is, and how much of the user's content it carries. */
export function describeSent({ method, path, json }: SentRequest): SentContent {
  const body = isRecord(json) ? json : {}
  const route = `${method} ${path}`
  switch (route) {
    case "POST /api/analyze/ask": {
      const history = Array.isArray(body.history) ? body.history.filter(isRecord) : []
      const textChars = characterCount(text(body.question)) + history.reduce((sum, turn) => sum + characterCount(text(turn.question)) + characterCount(text(turn.answer)), 0)
      const image = isRecord(body.image) ? text(body.image.dataUrl) : ""
      return { kind: "question", ...(image ? { imageBytes: dataUrlBytes(image) } : {}), textChars }
    }
    case "POST /api/analyze/translate":
      // An image's lines count as its text: the lines, one per line.
      return { kind: "translation", textChars: characterCount(Array.isArray(body.lines) ? body.lines.map(text).join("\n") : text(body.text)) }
    case "POST /api/analyze/translate-images": {
      // Translate images on this page: every image's lines, as one text.
      const images = Array.isArray(body.images) ? body.images.filter(isRecord) : []
      const lines = images.map((image) => (Array.isArray(image.lines) ? image.lines.map(text).join("\n") : ""))
      return { kind: "translation", textChars: characterCount(lines.join("\n")), detail: `Text of ${countOf(images.length, "image", "images")}` }
    }
    case "GET /api/ocr/languages":
      return { kind: "languageList" }
    case "POST /api/auth/extension-session":
      return { kind: "signIn" }
    case "POST /api/auth/logout":
      return { kind: "signOut" }
    case "POST /api/auth/refresh":
      return { kind: "sessionRenewal" }
    case "GET /api/analyze/usage":
      return { kind: "usage" }
    case "GET /api/auth/profile":
      return { kind: "profile" }
    case "GET /api/status":
      return { kind: "serviceStatus" }
  }
  const pack = method === "GET" ? PACK_PATH.exec(path) : null
  if (pack) return { kind: "languagePack", detail: decodeURIComponent(pack[1]!) }
  if (method === "GET" && LOGO_PATH.test(path)) return { kind: "organizationLogo" }
  return { kind: "other", detail: route }
}

/** The page this context works on: the side panel sets it as it follows the tabs; elsewhere there is none. */
let pageHost: string | null = null
const pageListeners = new Set<() => void>()

function hostOf(url: string | undefined): string | null {
  if (!url) return null
  try {
    return new URL(url).host || null
  } catch {
    return null
  }
}

export function setSentFromPage(url: string | undefined): void {
  const host = hostOf(url)
  if (host === pageHost) return
  pageHost = host
  pageListeners.forEach((listener) => listener())
}

export const sentFromHost = (): string | null => pageHost

/** For useSyncExternalStore: calls `listener` when the page changes; returns the unsubscribe. */
export function watchSentFromHost(listener: () => void): () => void {
  pageListeners.add(listener)
  return () => void pageListeners.delete(listener)
}

let localTurn: Promise<unknown> = Promise.resolve()

/** Runs `task` alone among every writer of the ledger (one at a time within this context where Web Locks are missing). */
function withLedgerLock<T>(task: () => Promise<T>): Promise<T> {
  const locks = typeof navigator === "undefined" ? undefined : (navigator.locks as LockManager | null | undefined)
  if (locks) return locks.request(SENT_LEDGER_LOCK, task) as Promise<T>
  const run = localTurn.then(task)
  localTurn = run.catch(() => {})
  return run
}

/** Adds one entry (newest first), dropping those past 30 days and beyond the limit. */
export function recordSent(request: SentRequest, { now = Date.now(), host = pageHost }: { now?: number; host?: string | null } = {}): Promise<void> {
  const entry: SentEntry = { at: now, host, ...describeSent(request) }
  return withLedgerLock(async () => {
    const kept = (await sentLedgerItem.get()).filter((earlier) => isFresh(earlier, now))
    await sentLedgerItem.set([entry, ...kept].slice(0, SENT_LEDGER_LIMIT))
  })
}

/** Records without holding up the request: a record that cannot be written must not stop the user's question. */
export function noteSent(request: SentRequest): void {
  recordSent(request).catch((error: unknown) => console.warn("Could not record a request in Sent from this device", error))
}

/** Empties the record; under the lock, so an entry being written is not brought back by its writer. */
export const clearSentLedger = (): Promise<void> => withLedgerLock(() => sentLedgerItem.remove())

/** The requests to our server that do not go through the API client: a language pack's streamed download, the organisation's logo. */
export const fetchRecorded: typeof fetch = (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input))
  noteSent({ method: (init?.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase() as OutgoingRequest["method"], path: url.pathname })
  return fetch(input, init)
}
