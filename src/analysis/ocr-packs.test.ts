import { createHash } from "node:crypto"

import { describe, expect, it, vi } from "vitest"

import type { OcrLanguagePack } from "~core/ocr/ocr-languages"

import { LanguagePackError, loadLanguagePack, packProgressText, sha256Hex, type PackStore } from "./ocr-packs"

const API = "https://api.example.com"
const PACK_BYTES = new Uint8Array(Array.from({ length: 300_000 }, (_, index) => (index * 7919) % 256))
const hashOf = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex")
const HINDI: OcrLanguagePack = { code: "hin", name: "Hindi", nativeName: "हिन्दी", script: "Devanagari", size: PACK_BYTES.byteLength, sha256: hashOf(PACK_BYTES) }

/** The store as a plain map: the real one is the browser's Cache Storage (see the end-to-end tests). */
function memoryStore(): PackStore & { entries: Map<string, Uint8Array> } {
  const entries = new Map<string, Uint8Array>()
  return {
    entries,
    read: async (code, sha256) => entries.get(`${code}/${sha256}`) ?? null,
    write: async (code, sha256, bytes) => void entries.set(`${code}/${sha256}`, bytes.slice()),
    removeOthers: async (code, sha256) => {
      for (const key of [...entries.keys()]) if (key.startsWith(`${code}/`) && key !== `${code}/${sha256}`) entries.delete(key)
    }
  }
}

/** A server answering the pack in chunks of 64 KB, as a network does. */
function serving(bytes: Uint8Array, status = 200) {
  return vi.fn(async (_url: string | URL | Request) => {
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let offset = 0; offset < bytes.byteLength; offset += 65_536) controller.enqueue(bytes.slice(offset, offset + 65_536))
        controller.close()
      }
    })
    return new Response(status === 200 ? stream : JSON.stringify({ success: false }), { status })
  })
}

describe("OCR language packs", () => {
  it("downloads a pack from our API once, checks its hash, reports progress in bytes, and keeps it for the next use", async () => {
    const store = memoryStore()
    const fetchPack = serving(PACK_BYTES)
    const progress: number[] = []
    const bytes = await loadLanguagePack(HINDI, { apiOrigin: API, store, fetch: fetchPack, onProgress: ({ loadedBytes }) => progress.push(loadedBytes) })
    expect(hashOf(bytes)).toBe(HINDI.sha256)
    expect(fetchPack).toHaveBeenCalledWith(`${API}/api/ocr/languages/hin`)
    expect(progress[0]).toBe(0)
    expect(progress.at(-1)).toBe(PACK_BYTES.byteLength)
    expect(progress).toEqual([...progress].sort((a, b) => a - b))
    expect(progress.length).toBeGreaterThan(3)

    const again = await loadLanguagePack(HINDI, { apiOrigin: API, store, fetch: fetchPack })
    expect(hashOf(again)).toBe(HINDI.sha256)
    expect(fetchPack).toHaveBeenCalledTimes(1)
  })

  it("refuses a pack whose bytes do not match the listed hash, and keeps nothing", async () => {
    const store = memoryStore()
    const tampered = PACK_BYTES.slice()
    tampered[1000] = (tampered[1000]! + 1) % 256
    const failure = await loadLanguagePack(HINDI, { apiOrigin: API, store, fetch: serving(tampered) }).catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(LanguagePackError)
    expect((failure as Error).message).toBe("The Hindi language pack failed its integrity check and was not used. English text recognition still works.")
    expect(store.entries.size).toBe(0)
  })

  it("refuses a pack longer or shorter than listed", async () => {
    for (const wrongSize of [PACK_BYTES.slice(0, -1), new Uint8Array([...PACK_BYTES, 1, 2, 3])]) {
      const store = memoryStore()
      await expect(loadLanguagePack(HINDI, { apiOrigin: API, store, fetch: serving(wrongSize) })).rejects.toThrow("failed its integrity check")
      expect(store.entries.size).toBe(0)
    }
  })

  it("says in plain words when the server cannot be reached or does not have the pack", async () => {
    const unreachable = vi.fn(async () => {
      throw new TypeError("Failed to fetch")
    })
    await expect(loadLanguagePack(HINDI, { apiOrigin: API, store: memoryStore(), fetch: unreachable })).rejects.toThrow(
      "Could not download the Hindi language pack: the Image Query AI service could not be reached. English text recognition still works."
    )
    await expect(loadLanguagePack(HINDI, { apiOrigin: API, store: memoryStore(), fetch: serving(PACK_BYTES, 404) })).rejects.toThrow(
      "The Image Query AI service did not provide the Hindi language pack (error 404). English text recognition still works."
    )
  })

  it("downloads again when the kept copy is damaged", async () => {
    const store = memoryStore()
    const damaged = PACK_BYTES.slice()
    damaged[0] = 255
    store.entries.set(`hin/${HINDI.sha256}`, damaged)
    const fetchPack = serving(PACK_BYTES)
    expect(hashOf(await loadLanguagePack(HINDI, { apiOrigin: API, store, fetch: fetchPack }))).toBe(HINDI.sha256)
    expect(fetchPack).toHaveBeenCalledTimes(1)
    expect(await sha256Hex(store.entries.get(`hin/${HINDI.sha256}`)!)).toBe(HINDI.sha256)
  })

  it("replaces the kept copy when the server's pack changed", async () => {
    const store = memoryStore()
    const previous = new Uint8Array([1, 2, 3])
    store.entries.set(`hin/${hashOf(previous)}`, previous)
    store.entries.set(`jpn/${hashOf(previous)}`, previous)
    await loadLanguagePack(HINDI, { apiOrigin: API, store, fetch: serving(PACK_BYTES) })
    expect([...store.entries.keys()].sort()).toEqual([`hin/${HINDI.sha256}`, `jpn/${hashOf(previous)}`])
  })

  it("still gives the pack when it cannot be kept", async () => {
    const store = { ...memoryStore(), write: async () => Promise.reject(new Error("QuotaExceededError")) }
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {})
    expect(hashOf(await loadLanguagePack(HINDI, { apiOrigin: API, store, fetch: serving(PACK_BYTES) }))).toBe(HINDI.sha256)
    expect(warn).toHaveBeenCalled()
    warn.mockRestore()
  })

  it("words the progress in megabytes", () => {
    expect(packProgressText(HINDI, { loadedBytes: 600_000, totalBytes: 1_400_000 })).toBe("Downloading Hindi: 0.6 of 1.4 MB")
  })
})
