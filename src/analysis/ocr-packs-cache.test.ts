import { beforeEach, describe, expect, it, vi } from "vitest"

import { tesseractCachePackStore } from "./ocr-packs"

/** idb-keyval as a map per database/store: the browser's IndexedDB is exercised by the end-to-end tests. */
const databases = vi.hoisted(() => new Map<string, Map<unknown, unknown>>())

vi.mock("idb-keyval", () => {
  type Store = { entries: Map<unknown, unknown> }
  const entriesOf = (name: string) => databases.get(name) ?? databases.set(name, new Map()).get(name)!
  return {
    createStore: (dbName: string, storeName: string): Store => ({ entries: entriesOf(`${dbName}/${storeName}`) }),
    get: async (key: unknown, store: Store) => store.entries.get(key),
    set: async (key: unknown, value: unknown, store: Store) => void store.entries.set(key, value)
  }
})

describe("tesseractCachePackStore", () => {
  beforeEach(() => databases.clear())

  it("keeps one pack per code where tesseract.js's cache reads it", async () => {
    const store = tesseractCachePackStore()
    expect(await store.read("hin", "any")).toBeNull()
    await store.write("hin", "first", new Uint8Array([1, 2]))
    await store.write("hin", "second", new Uint8Array([3, 4, 5]))
    expect([...databases.keys()]).toEqual(["keyval-store/keyval"])
    expect([...databases.get("keyval-store/keyval")!.keys()]).toEqual(["ocr-packs/hin.traineddata"])
    expect(await store.read("hin", "second")).toEqual(new Uint8Array([3, 4, 5]))
    expect(await tesseractCachePackStore().read("hin", "second")).toEqual(new Uint8Array([3, 4, 5]))
  })

  it("answers nothing for a kept value that is not a pack's bytes", async () => {
    databases.set("keyval-store/keyval", new Map([["ocr-packs/jpn.traineddata", "not bytes"]]))
    expect(await tesseractCachePackStore().read("jpn", "any")).toBeNull()
  })
})
