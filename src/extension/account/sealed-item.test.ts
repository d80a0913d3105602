// @vitest-environment node
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import * as z from "zod"

import { openSessionItem, sealedSessionItem, sealOpenSession, type ExtensionSession } from "./extension-session"
import { createFakeChrome, type FakeChrome } from "../browser/fake-chrome.test-support"
import { SEAL_ALGORITHM, sealedItem } from "./sealed-item"

let fake: FakeChrome
let key: CryptoKey
const makeKey = () => crypto.subtle.generateKey({ name: SEAL_ALGORITHM, length: 256 }, false, ["encrypt", "decrypt"])

const secretSchema = z.object({ token: z.string() }).nullable()
const secretItem = (name = "secret", sealingKey = async () => key) => sealedItem({ key: name, schema: secretSchema, fallback: null, sealingKey })

const session: ExtensionSession = {
  user: { name: "Grace", email: "grace@example.com", role: "user", provider: "email" },
  token: "eyJ.access.token",
  refreshToken: "refresh-token-value",
  expiresAt: Date.UTC(2026, 10, 22, 10)
}

beforeEach(async () => {
  fake = createFakeChrome()
  vi.stubGlobal("chrome", fake)
  key = await makeKey()
})
afterEach(() => vi.unstubAllGlobals())

describe("a sealed item", () => {
  it("keeps only ciphertext in storage.local, a fresh IV at every write, and reads back what was set", async () => {
    const item = secretItem()
    await item.set({ token: "token-123" })
    const first = fake.storage.local.items.get("secret") as { iv: string; data: string }
    expect(first).toMatchObject({ sealed: SEAL_ALGORITHM, iv: expect.any(String), data: expect.any(String) })
    expect(JSON.stringify([...fake.storage.local.items])).not.toContain("token-123")
    expect(await item.get()).toEqual({ token: "token-123" })
    await item.set({ token: "token-123" })
    expect((fake.storage.local.items.get("secret") as { iv: string }).iv).not.toBe(first.iv)
    await item.remove()
    expect(fake.storage.local.items.has("secret")).toBe(false)
    expect(await item.get()).toBeNull()
  })

  it("reads as nothing stored what it cannot open: a plain value, another key's seal, a value moved from another item", async () => {
    // Planted as the extension kept it unsealed (what a content script can write in Firefox).
    await fake.storage.local.set({ secret: { token: "planted" } })
    expect(await secretItem().get()).toBeNull()
    // Sealed with a key that is not ours.
    const otherKey = await makeKey()
    await secretItem("secret", async () => otherKey).set({ token: "theirs" })
    expect(await secretItem().get()).toBeNull()
    // Sealed by us for another item, copied under this one: the item's key is part of the seal.
    await secretItem("other").set({ token: "elsewhere" })
    await fake.storage.local.set({ secret: fake.storage.local.items.get("other") })
    expect(await secretItem().get()).toBeNull()
    // Tampered with.
    await secretItem().set({ token: "ours" })
    const sealed = fake.storage.local.items.get("secret") as { data: string }
    await fake.storage.local.set({ secret: { ...sealed, data: `${sealed.data.startsWith("A") ? "B" : "A"}${sealed.data.slice(1)}` } })
    expect(await secretItem().get()).toBeNull()
  })

  it("tells its watchers each change opened, in order, and the fallback on removal", async () => {
    const item = secretItem()
    const heard: unknown[] = []
    const stop = item.watch((value) => heard.push(value))
    await item.set({ token: "a" })
    await item.set({ token: "b" })
    await item.remove()
    await vi.waitFor(() => expect(heard).toEqual([{ token: "a" }, { token: "b" }, null]))
    stop()
  })
})

describe("the extension's session sealed (Firefox)", () => {
  it("seals a session an earlier version kept as it is, once, and afterwards reads an unsealed one as none", async () => {
    const sealed = sealedSessionItem(async () => key)
    await openSessionItem.set(session)
    expect(await sealed.get()).toBeNull()
    await sealOpenSession(openSessionItem, sealed)
    expect(await sealed.get()).toEqual(session)
    const stored = JSON.stringify(fake.storage.local.items.get("extensionSession"))
    for (const secret of [session.token, session.refreshToken, session.user.email]) expect(stored).not.toContain(secret)
    // Sealed already: nothing to do.
    await sealOpenSession(openSessionItem, sealed)
    expect(await sealed.get()).toEqual(session)
    // A plain session planted afterwards is no session.
    await openSessionItem.set({ ...session, token: "planted" })
    expect(await sealed.get()).toBeNull()
  })

  it("changes nothing where the session is not sealed (Chrome)", async () => {
    await openSessionItem.set(session)
    await sealOpenSession(openSessionItem, openSessionItem)
    expect(fake.storage.local.items.get("extensionSession")).toBe(JSON.stringify(session))
  })
})
