/**
 * The page translations kept on this device, so that a second visit, a toggle or a reload costs no request: one per
 * image address and target language, for 7 days from when it was made, the least recently used let go once all of
 * them pass 50 MB. In the panel's IndexedDB (the extension's origin: no page can read it), and in memory for the
 * panel's life (a toggle or a language back reads nothing). Settings' *Forget kept translations* empties both.
 *
 * The bare IndexedDB API rather than a library: `idb` is not a dependency of ours, and idb-keyval (which is) has no
 * second store or index, while the eviction reads every entry's size and dates without loading the translations:
 * those are kept in an "info" store of their own beside the "translations" store, under the same key. The policy
 * (what is fresh, what goes) is pure functions, tested alone; the stores are thin around them.
 */
import { DAY_MS } from "~core/time"
import { PAGE_TRANSLATION_SHOW, pageTranslationShow, type PageImageTranslation } from "~extension/messaging/page-translation-messages"

export const CACHE_MAX_AGE_MS = 7 * DAY_MS
export const CACHE_MAX_BYTES = 50 * 1024 * 1024

/** What the eviction reads of an entry. */
export interface CacheEntryInfo {
  key: string
  /** Bytes of the translation as stored text (entrySize). */
  size: number
  /** Milliseconds since the epoch: made, and last shown. */
  savedAt: number
  usedAt: number
}

export const cacheKey = (url: string, language: string): string => `${language} ${url}`

export const isFresh = (entry: Pick<CacheEntryInfo, "savedAt">, now: number): boolean => now - entry.savedAt < CACHE_MAX_AGE_MS

export const entrySize = (value: unknown): number => new TextEncoder().encode(JSON.stringify(value)).length

/** The entries to let go: those past 7 days, and once the rest (most recently used first) pass `maxBytes`, all after. */
export function keysToEvict(entries: readonly CacheEntryInfo[], now: number, maxBytes = CACHE_MAX_BYTES): string[] {
  const evicted = entries.filter((entry) => !isFresh(entry, now)).map((entry) => entry.key)
  const kept = entries.filter((entry) => isFresh(entry, now)).sort((a, b) => b.usedAt - a.usedAt)
  let total = 0
  let full = false
  for (const entry of kept) {
    total += entry.size
    full ||= total > maxBytes
    if (full) evicted.push(entry.key)
  }
  return evicted
}

const DATABASE = "page-translations"
const TRANSLATIONS = "translations"
const INFO = "info"

let opened: Promise<IDBDatabase> | null = null

function database(): Promise<IDBDatabase> {
  opened ??= new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(DATABASE, 1)
    request.onupgradeneeded = () => {
      request.result.createObjectStore(TRANSLATIONS)
      request.result.createObjectStore(INFO)
    }
    request.onsuccess = () => resolve(request.result)
    request.onerror = () => reject(request.error ?? new Error("The translations kept on this device could not be opened"))
  })
  // A failure (private mode, storage refused) is tried again next time.
  opened.catch(() => (opened = null))
  return opened
}

const done = (transaction: IDBTransaction) =>
  new Promise<void>((resolve, reject) => {
    transaction.oncomplete = () => resolve()
    transaction.onerror = transaction.onabort = () => reject(transaction.error ?? new Error("The translations kept on this device could not be changed"))
  })

const result = <T>(request: IDBRequest<T>) =>
  new Promise<T>((resolve, reject) => {
    request.onsuccess = () => resolve(request.result)
    request.onerror = () => reject(request.error ?? new Error("The translations kept on this device could not be read"))
  })

/** A stored value that is a translation as the page draws it (an older format or a damaged one is not). */
const asTranslation = (value: unknown): PageImageTranslation | null => (pageTranslationShow.is({ type: PAGE_TRANSLATION_SHOW, url: "-", translation: value }) ? (value as PageImageTranslation) : null)

/** This panel's translations, by cacheKey. */
const inMemory = new Map<string, PageImageTranslation>()

/** The image's translation into `language`: this panel's, else the device's (fresh, marked as used now); null when none. */
export async function keptTranslation(url: string, language: string, now = Date.now()): Promise<PageImageTranslation | null> {
  const key = cacheKey(url, language)
  const made = inMemory.get(key)
  if (made) return made
  const stored = await storedTranslation(url, language, now)
  if (stored) inMemory.set(key, stored)
  return stored
}

async function storedTranslation(url: string, language: string, now: number): Promise<PageImageTranslation | null> {
  try {
    const db = await database()
    const key = cacheKey(url, language)
    const transaction = db.transaction([TRANSLATIONS, INFO], "readwrite")
    const [value, info] = await Promise.all([result(transaction.objectStore(TRANSLATIONS).get(key)), result(transaction.objectStore(INFO).get(key) as IDBRequest<CacheEntryInfo | undefined>)])
    const translation = info && isFresh(info, now) ? asTranslation(value) : null
    if (translation) transaction.objectStore(INFO).put({ ...info, usedAt: now }, key)
    else if (info || value !== undefined) {
      transaction.objectStore(TRANSLATIONS).delete(key)
      transaction.objectStore(INFO).delete(key)
    }
    await done(transaction)
    return translation
  } catch {
    return null
  }
}

/** Keeps the image's translation into `language`, then lets go what the policy says; a failure only costs a later request. */
export async function keepTranslation(url: string, language: string, translation: PageImageTranslation, now = Date.now()): Promise<void> {
  inMemory.set(cacheKey(url, language), translation)
  try {
    const db = await database()
    const key = cacheKey(url, language)
    const info: CacheEntryInfo = { key, size: entrySize(translation), savedAt: now, usedAt: now }
    const writing = db.transaction([TRANSLATIONS, INFO], "readwrite")
    writing.objectStore(TRANSLATIONS).put(translation, key)
    writing.objectStore(INFO).put(info, key)
    await done(writing)
    const evicting = db.transaction([TRANSLATIONS, INFO], "readwrite")
    const all = await result(evicting.objectStore(INFO).getAll() as IDBRequest<CacheEntryInfo[]>)
    for (const evicted of keysToEvict(all, now)) {
      evicting.objectStore(TRANSLATIONS).delete(evicted)
      evicting.objectStore(INFO).delete(evicted)
    }
    await done(evicting)
  } catch (error) {
    console.warn("Could not keep a page translation on this device", error)
  }
}

/** Forgets every translation kept, in this panel and on the device. */
export async function forgetTranslations(): Promise<void> {
  inMemory.clear()
  const db = await database()
  const clearing = db.transaction([TRANSLATIONS, INFO], "readwrite")
  clearing.objectStore(TRANSLATIONS).clear()
  clearing.objectStore(INFO).clear()
  await done(clearing)
}
