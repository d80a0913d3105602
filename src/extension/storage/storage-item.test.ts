import { act, renderHook, waitFor } from "@testing-library/react"
import { describe, expect, it } from "vitest"
import * as z from "zod"

import { installFakeChromeForEachTest } from "../browser/fake-chrome.test-support"
import { sessionItem, storageItem } from "./storage-item"
import { useStorageItem } from "./use-storage-item"

const chromeFake = installFakeChromeForEachTest()

const counter = storageItem({ key: "counter", schema: z.object({ count: z.number().int().catch(0), label: z.string().catch("none") }), fallback: { count: 0, label: "none" } })

describe("storageItem", () => {
  it("answers the fallback when nothing is stored, and what was set afterwards", async () => {
    expect(await counter.get()).toEqual({ count: 0, label: "none" })
    await counter.set({ count: 3, label: "three" })
    expect(await counter.get()).toEqual({ count: 3, label: "three" })
    expect(chromeFake().storage.local.items.get("counter")).toEqual({ count: 3, label: "three" })
  })

  it("reads back values as the versions before @plasmohq/storage stored them: as they are, not as JSON text", async () => {
    chromeFake().storage.local.items.set("counter", { count: 8, label: "stored before" })
    expect(await counter.get()).toEqual({ count: 8, label: "stored before" })
    const inSession = storageItem({ key: "pick", area: "session", schema: z.object({ url: z.string() }).nullable(), fallback: null })
    chromeFake().storage.session.items.set("pick", { url: "https://example.com/a.png" })
    expect(await inSession.get()).toEqual({ url: "https://example.com/a.png" })
  })

  it("puts every stored value through the schema: a bad field falls back alone, a bad value wholly", async () => {
    await chromeFake().storage.local.set({ counter: { count: "many", label: "kept" } })
    expect(await counter.get()).toEqual({ count: 0, label: "kept" })
    await chromeFake().storage.local.set({ counter: "not an object" })
    expect(await counter.get()).toEqual({ count: 0, label: "none" })
  })

  it("keeps to its own area", async () => {
    const inSession = storageItem({ key: "counter", area: "session", schema: z.number(), fallback: -1 })
    await counter.set({ count: 5, label: "local" })
    expect(await inSession.get()).toBe(-1)
    await inSession.set(7)
    expect(chromeFake().storage.session.items.get("counter")).toBe(7)
    expect(await counter.get()).toEqual({ count: 5, label: "local" })
  })

  it("sessionItem keeps a value in the session area, null when there is none or it fails the schema", async () => {
    const pick = sessionItem("pick", z.object({ url: z.string() }))
    expect(pick.area).toBe("session")
    expect(await pick.get()).toBeNull()
    await pick.set({ url: "https://example.com/a.png" })
    expect(chromeFake().storage.session.items.get("pick")).toEqual({ url: "https://example.com/a.png" })
    expect(await pick.get()).toEqual({ url: "https://example.com/a.png" })
    await chromeFake().storage.session.set({ pick: { url: 3 } })
    expect(await pick.get()).toBeNull()
  })

  it("writes through its encoder and reads back through the schema", async () => {
    const asText = storageItem({ key: "text", schema: z.preprocess((raw) => (typeof raw === "string" ? JSON.parse(raw) : raw), z.object({ n: z.number() })), fallback: { n: 0 }, encode: JSON.stringify })
    await asText.set({ n: 5 })
    expect(chromeFake().storage.local.items.get("text")).toBe('{"n":5}')
    expect(await asText.get()).toEqual({ n: 5 })
  })

  it("remove brings back the fallback", async () => {
    await counter.set({ count: 1, label: "one" })
    await counter.remove()
    expect(chromeFake().storage.local.items.has("counter")).toBe(false)
    expect(await counter.get()).toEqual({ count: 0, label: "none" })
  })

  it("watch reports parsed changes of its key in its area only, until unsubscribed", async () => {
    const seen: unknown[] = []
    const stop = counter.watch((value) => seen.push(value))
    await chromeFake().storage.local.set({ other: 1 })
    await chromeFake().storage.session.set({ counter: { count: 9, label: "session" } })
    await counter.set({ count: 2, label: "two" })
    await chromeFake().storage.local.set({ counter: { count: 2.5 } })
    await counter.remove()
    stop()
    await counter.set({ count: 4, label: "unseen" })
    expect(seen).toEqual([
      { count: 2, label: "two" },
      { count: 0, label: "none" },
      { count: 0, label: "none" }
    ])
  })
})

describe("useStorageItem", () => {
  it("is undefined until read, then follows changes from any context, and saves through storage", async () => {
    await counter.set({ count: 1, label: "stored" })
    const { result } = renderHook(() => useStorageItem(counter))
    expect(result.current[0]).toBeUndefined()
    await waitFor(() => expect(result.current[0]).toEqual({ count: 1, label: "stored" }))

    await act(() => chromeFake().storage.local.set({ counter: { count: 2, label: "elsewhere" } }))
    expect(result.current[0]).toEqual({ count: 2, label: "elsewhere" })

    await act(() => result.current[1]({ count: 3, label: "saved" }))
    expect(result.current[0]).toEqual({ count: 3, label: "saved" })
    expect(chromeFake().storage.local.items.get("counter")).toEqual({ count: 3, label: "saved" })
  })

  it("stops following changes once unmounted", async () => {
    const { unmount } = renderHook(() => useStorageItem(counter))
    expect(chromeFake().storage.onChanged.listeners.size).toBe(1)
    unmount()
    expect(chromeFake().storage.onChanged.listeners.size).toBe(0)
  })
})
