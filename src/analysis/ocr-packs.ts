/**
 * OCR language packs beyond the English one shipped in the extension: downloaded from our own server
 * (GET /api/ocr/languages/{code}), checked against the SHA-256 the server lists, and kept on the device so the
 * second use needs no network. They are kept where tesseract.js's own cache reads them (tesseractCachePackStore),
 * so tesseract.js never fetches anything on its own.
 */
import { createStore, get, set } from "idb-keyval"

import type { OcrLanguagePack } from "~core/ocr/ocr-languages"

/** Where verified packs are kept: asked for by code and the hash the server lists. */
export interface PackStore {
  read(code: string, sha256: string): Promise<Uint8Array | null>
  write(code: string, sha256: string, bytes: Uint8Array): Promise<void>
  /** Removes the kept packs of this code other than the given hash (the server's pack changed). */
  removeOthers(code: string, sha256: string): Promise<void>
}

export interface PackProgress {
  loadedBytes: number
  totalBytes: number
}

const ENGLISH_STILL_WORKS = "English text recognition still works."

/** A pack that could not be had; the message is for the user, in plain words. */
export class LanguagePackError extends Error {
  override readonly name = "LanguagePackError"
}

export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>)
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("")
}

/** "Downloading Hindi: 0.6 of 1.4 MB" */
export function packProgressText(pack: Pick<OcrLanguagePack, "name">, { loadedBytes, totalBytes }: PackProgress): string {
  const megabytes = (bytes: number) => (bytes / 1_000_000).toFixed(1)
  return `Downloading ${pack.name}: ${megabytes(loadedBytes)} of ${megabytes(totalBytes)} MB`
}

async function readBody(response: Response, totalBytes: number, onProgress: (progress: PackProgress) => void): Promise<Uint8Array> {
  if (!response.body) return new Uint8Array(await response.arrayBuffer())
  const chunks: Uint8Array[] = []
  let loadedBytes = 0
  const reader = response.body.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    chunks.push(value)
    loadedBytes += value.byteLength
    // A server sending more than it listed is not sending this pack: stop reading rather than fill memory.
    if (loadedBytes > totalBytes) {
      await reader.cancel()
      break
    }
    onProgress({ loadedBytes, totalBytes })
  }
  const bytes = new Uint8Array(loadedBytes)
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk.subarray(0, Math.min(chunk.byteLength, loadedBytes - offset)), offset)
    offset += chunk.byteLength
  }
  return bytes
}

export interface LoadPackOptions {
  /** Origin of our API, e.g. "https://api.example.com". */
  apiOrigin: string
  store: PackStore
  fetch?: typeof fetch
  onProgress?: (progress: PackProgress) => void
}

/**
 * The verified bytes of a pack: from the store when kept there (and still matching its hash), otherwise
 * downloaded, checked and kept. Rejects with a LanguagePackError saying what went wrong.
 */
export async function loadLanguagePack(pack: OcrLanguagePack, { apiOrigin, store, fetch: fetchPack = fetch, onProgress = () => {} }: LoadPackOptions): Promise<Uint8Array> {
  const kept = await store.read(pack.code, pack.sha256).catch(() => null)
  // Checked again: storage can be damaged, and a wrong pack would give wrong text silently.
  if (kept && (await sha256Hex(kept)) === pack.sha256) return kept

  let response: Response
  try {
    response = await fetchPack(`${apiOrigin}/api/ocr/languages/${encodeURIComponent(pack.code)}`)
  } catch {
    throw new LanguagePackError(`Could not download the ${pack.name} language pack: the Image Query AI service could not be reached. ${ENGLISH_STILL_WORKS}`)
  }
  if (!response.ok) {
    throw new LanguagePackError(`The Image Query AI service did not provide the ${pack.name} language pack (error ${response.status}). ${ENGLISH_STILL_WORKS}`)
  }
  onProgress({ loadedBytes: 0, totalBytes: pack.size })
  let bytes: Uint8Array
  try {
    bytes = await readBody(response, pack.size, onProgress)
  } catch {
    throw new LanguagePackError(`The download of the ${pack.name} language pack was interrupted. ${ENGLISH_STILL_WORKS}`)
  }
  if (bytes.byteLength !== pack.size || (await sha256Hex(bytes)) !== pack.sha256) {
    throw new LanguagePackError(`The ${pack.name} language pack failed its integrity check and was not used. ${ENGLISH_STILL_WORKS}`)
  }
  try {
    await store.write(pack.code, pack.sha256, bytes)
    await store.removeOthers(pack.code, pack.sha256)
  } catch (error) {
    // Still usable now; it is downloaded again next time.
    console.warn(`Could not keep the ${pack.name} language pack on this device`, error)
  }
  return bytes
}

/**
 * tesseract.js looks for a language in its IndexedDB cache (idb-keyval's "keyval-store" database, key
 * "<cachePath>/<code>.traineddata") before downloading it from langPath. Verified packs are kept right there, one
 * per code, so it reads them with no download and they are stored once. (Handing it the bytes as { code, data } is
 * not an option: tesseract.js 7 then initialises with the bytes as the language's name.)
 */
export const OCR_PACK_CACHE_PATH = "ocr-packs"
const TESSERACT_CACHE_DATABASE = "keyval-store"
const TESSERACT_CACHE_STORE = "keyval"

const packKey = (code: string) => `${OCR_PACK_CACHE_PATH}/${code}.traineddata`

/**
 * Verified packs in tesseract.js's own cache: they survive panel reloads and browser restarts. One copy per code,
 * whatever its hash: loadLanguagePack hashes what it reads, so a copy of an older pack is downloaded again.
 */
export function tesseractCachePackStore(): PackStore {
  // The database and object store tesseract.js's own idb-keyval reads (its defaults), named rather than implied.
  const cache = createStore(TESSERACT_CACHE_DATABASE, TESSERACT_CACHE_STORE)
  return {
    async read(code) {
      const value = await get<unknown>(packKey(code), cache)
      return value instanceof Uint8Array ? value : null
    },
    async write(code, _sha256, bytes) {
      await set(packKey(code), bytes, cache)
    },
    // Writing a code's pack already replaced its older copy.
    removeOthers: async () => {}
  }
}
