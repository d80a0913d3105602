/**
 * A stored value that only the extension's own pages can read, for the browser whose content scripts read
 * storage.local: Firefox.
 *
 * Chrome closes storage.local to content scripts (setAccessLevel TRUSTED_CONTEXTS, src/background/index.ts). Firefox has
 * no such setting for storage.local (Mozilla bug 1724754): every content script of the extension, which runs in the web
 * page's process, can read and write it. So there a secret (the extension's session, ./extension-session) is sealed:
 * - it is kept in storage.local as AES-GCM ciphertext, with a fresh 96-bit IV at every write and the item's key as
 *   additional data (a sealed value cannot be moved under another key);
 * - under one AES-256 key that the extension makes itself, non-extractable, kept in the IndexedDB of the extension's
 *   origin (moz-extension://…). Content scripts have the page's origin, so the page's IndexedDB, never ours; and a
 *   non-extractable CryptoKey can be used, never exported, even by code of our origin.
 * What a content script (or a compromised page process speaking as one) can still do: read ciphertext; remove the value
 * (a sign-out); put back an older sealed value of ours (an older refresh token, which the server's reuse detection turns
 * into a sign-out). It can neither read a token nor plant one of its own: a value that does not open with our key
 * counts as nothing stored.
 *
 * Why not what the browser offers instead:
 * - storage.session is closed to Firefox's content scripts too, but emptied when Firefox closes: the person would sign
 *   in again after every restart. Sealed, the session lasts as long as the server lets it (30 days unused, 90 at most);
 * - the background's memory alone: Firefox's MV3 background is an event page, unloaded when idle, and the popup and
 *   the side panel read the session too.
 * The key lives as long as the extension's own data: removing the extension (or clearing its data) forgets it, and a
 * value it can no longer open reads as signed out.
 */
import { createStore, get, update } from "idb-keyval"
import * as z from "zod"

import { base64ToBytes, bytesToBase64 } from "./base64"
import { storageItem, type StoredValue } from "../storage/storage-item"

/**
 * Whether this build's content scripts can read storage.local, so its secrets are sealed: the Firefox build (Plasmo
 * inlines PLASMO_BROWSER, the build's target browser).
 */
export const CONTENT_SCRIPTS_READ_STORAGE = process.env.PLASMO_BROWSER === "firefox"

/** Where the sealing key is kept: a database, an object store and a key of the extension origin's IndexedDB. */
export const SEAL_DATABASE = "image-query-ai-seal"
export const SEAL_STORE = "keys"
export const SEAL_KEY_NAME = "storage-seal"
export const SEAL_ALGORITHM = "AES-GCM"

/** What storage.local holds for a sealed value: base64 of the IV and of the ciphertext with its tag. */
const sealedSchema = z.object({ sealed: z.literal(SEAL_ALGORITHM), iv: z.string(), data: z.string() })
export type Sealed = z.infer<typeof sealedSchema>

let sealingKey: Promise<CryptoKey> | null = null

/**
 * The extension's sealing key, made on first use. Two contexts making it at once (the background and a panel) both end
 * with the first one stored: the write keeps a key already there.
 */
export function extensionSealingKey(): Promise<CryptoKey> {
  sealingKey ??= (async () => {
    const store = createStore(SEAL_DATABASE, SEAL_STORE)
    const stored = await get<CryptoKey>(SEAL_KEY_NAME, store)
    if (stored) return stored
    const made = await crypto.subtle.generateKey({ name: SEAL_ALGORITHM, length: 256 }, false, ["encrypt", "decrypt"])
    await update<CryptoKey>(SEAL_KEY_NAME, (current) => current ?? made, store)
    const kept = await get<CryptoKey>(SEAL_KEY_NAME, store)
    if (!kept) throw new Error("The extension could not keep its sealing key")
    return kept
  })()
  // A failure (IndexedDB unavailable for a moment) is tried again at the next use.
  sealingKey.catch(() => (sealingKey = null))
  return sealingKey
}

export interface SealedItemDefinition<T> {
  key: string
  /** What an opened value must pass; anything else reads as the fallback. */
  schema: z.ZodType<T>
  fallback: T
  /** The key to seal with: the extension's own, or a test's. */
  sealingKey?: () => Promise<CryptoKey>
}

/** A value kept sealed in storage.local: read, written and followed like a storage item (../storage/storage-item). */
export function sealedItem<T>({ key, schema, fallback, sealingKey: keyOf = extensionSealingKey }: SealedItemDefinition<T>): StoredValue<T> {
  const sealedValue = storageItem<Sealed | null>({ key, schema: sealedSchema.nullable(), fallback: null })
  const additionalData = new TextEncoder().encode(key)

  async function open(stored: Sealed | null): Promise<T> {
    if (!stored) return fallback
    try {
      const plain = await crypto.subtle.decrypt({ name: SEAL_ALGORITHM, iv: base64ToBytes(stored.iv), additionalData }, await keyOf(), base64ToBytes(stored.data))
      const parsed = schema.safeParse(JSON.parse(new TextDecoder().decode(plain)))
      return parsed.success ? parsed.data : fallback
    } catch {
      // Not sealed with our key (written by someone else, or the key is gone): nothing valid is stored.
      return fallback
    }
  }

  return {
    key,
    area: "local",
    get: async () => open(await sealedValue.get()),
    async set(value) {
      const iv = crypto.getRandomValues(new Uint8Array(12))
      const data = await crypto.subtle.encrypt({ name: SEAL_ALGORITHM, iv, additionalData }, await keyOf(), new TextEncoder().encode(JSON.stringify(value)))
      await sealedValue.set({ sealed: SEAL_ALGORITHM, iv: bytesToBase64(iv), data: bytesToBase64(new Uint8Array(data)) })
    },
    remove: () => sealedValue.remove(),
    watch(listener) {
      // Opening takes time: changes are opened one after another, so the listener hears them in their order.
      let opened = Promise.resolve()
      return sealedValue.watch((stored) => {
        opened = opened.then(async () => listener(await open(stored))).catch((error: unknown) => console.warn("A listener of a sealed value failed", error))
      })
    }
  }
}
