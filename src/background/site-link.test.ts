import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"

import { EXTENSION_AUTH_STATUS_REQUEST, EXTENSION_LOGOUT_REQUEST, SITE_LINK_PORT_NAME, websiteLoginMessage, websiteSyncMessage } from "~core/extension-messages"
import type { User } from "~core/user"
import { EXTENSION_SESSION_KEY, readExtensionSession } from "~extension/account/extension-session"
import { createFakeChrome, type FakeChrome } from "~extension/browser/fake-chrome.test-support"
import { SIGN_OUT_REQUEST } from "~extension/messaging/messages"
import { SITE_ORIGINS } from "~extension/site-link/site-origins"

import { listenToMessages } from "./message-routes"
import { connectedSitePages, listenToSiteLinks, pendingSiteLogoutItem } from "./site-link"
import { SIGNED_OUT_IN_EXTENSION_ERROR } from "./site-messages"
import { handleSiteMessage } from "./site-messages.test-support"

const EXTENSION = "chrome-extension://ffaglifbbggnijgmaboakodgdepojdjj"
const SITE = { origin: SITE_ORIGINS[0], url: `${SITE_ORIGINS[0]}/dashboard`, frameId: 0 }
const ada: User & { id: string } = { id: "u1", name: "Ada", email: "ada@example.com", role: "user", provider: "email" }

let fake: FakeChrome

/** The extension-session and logout calls of the API, answered as the server does. */
const fakeFetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
  const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } })
  if (new Request(input, init).url.endsWith("/api/auth/extension-session")) {
    return json(200, { success: true, data: { user: ada, token: "ext-1", refreshToken: "ext-refresh-1", expiresAt: Math.floor(Date.now() / 1000) + 3600 } })
  }
  return json(200, { success: true, data: { loggedOut: true } })
}) as unknown as typeof fetch

function fakePort(name: string, sender: object) {
  const onMessage = new Set<(message: unknown) => void>()
  const onDisconnect = new Set<() => void>()
  const port = {
    name,
    sender,
    posted: [] as { type: string; timestamp: number }[],
    disconnected: false,
    postMessage: (message: { type: string; timestamp: number }) => void port.posted.push(message),
    disconnect: () => {
      port.disconnected = true
    },
    onMessage: { addListener: (listener: (message: unknown) => void) => void onMessage.add(listener) },
    onDisconnect: { addListener: (listener: () => void) => void onDisconnect.add(listener) },
    answer: (message: unknown) => onMessage.forEach((listener) => listener(message)),
    close: () => onDisconnect.forEach((listener) => listener())
  }
  return port
}

type FakePort = ReturnType<typeof fakePort>

function connect(port: FakePort, external = true) {
  const event = external ? fake.runtime.onConnectExternal : fake.runtime.onConnect
  for (const listener of event.listeners) (listener as (port: FakePort) => void)(port)
}

async function sendInternal(message: unknown, sender: object): Promise<unknown> {
  for (const listener of fake.runtime.onMessage.listeners) {
    let answer: unknown
    const pending = new Promise((resolve) => {
      const handled = (listener as (m: unknown, s: object, r: (a: unknown) => void) => boolean)(message, sender, (value) => {
        answer = value
        resolve(value)
      })
      if (!handled) resolve(undefined)
    })
    await pending
    if (answer !== undefined) return answer
  }
  return undefined
}

beforeEach(async () => {
  fake = createFakeChrome()
  vi.stubGlobal("chrome", fake)
  vi.stubGlobal("fetch", fakeFetch)
  // The site's own service: the one its pages may hand their session to.
  await fake.storage.local.set({ apiOrigin: SITE_ORIGINS[0] })
  listenToSiteLinks(fake.runtime as unknown as typeof chrome.runtime)
  listenToMessages(fake.runtime as unknown as typeof chrome.runtime)
})
afterEach(() => {
  vi.unstubAllGlobals()
})

describe("the site-link ports", () => {
  it("refuses ports of another name or sender, and of a frame of the site", async () => {
    const before = connectedSitePages()
    const wrongName = fakePort("something-else", SITE)
    const wrongSender = fakePort(SITE_LINK_PORT_NAME, { origin: "http://evil.test", url: "http://evil.test/", frameId: 0 })
    // The site's page framed by another page (Chrome admits it by the frame's URL; Firefox's bridge is never there).
    const framed = fakePort(SITE_LINK_PORT_NAME, { ...SITE, frameId: 7, tab: { id: 3, url: "http://evil.test/" } })
    connect(wrongName)
    connect(wrongSender)
    connect(framed)
    // In Firefox the site's ports come through the bridge, a content script: runtime.onConnect, the same rule.
    const framedThroughBridge = fakePort(SITE_LINK_PORT_NAME, { ...SITE, id: fake.runtime.id, frameId: 7 })
    connect(framedThroughBridge, false)
    expect(wrongName.disconnected).toBe(true)
    expect(wrongSender.disconnected).toBe(true)
    expect(framed.disconnected).toBe(true)
    expect(framedThroughBridge.disconnected).toBe(true)
    expect(connectedSitePages()).toBe(before)
    // Nothing is asked of it, even once the stored state is read.
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect(framed.posted).toEqual([])
  })

  it("asks a newly connected page for its auth state", async () => {
    const port = fakePort(SITE_LINK_PORT_NAME, SITE)
    connect(port)
    await vi.waitFor(() => expect(port.posted).toHaveLength(1))
    expect(port.posted[0]).toMatchObject({ type: EXTENSION_AUTH_STATUS_REQUEST, timestamp: expect.any(Number) })
    port.close()
  })

  it("signs out everywhere: open pages get a logout request, later pages too until one answers it", async () => {
    await handleSiteMessage(websiteLoginMessage({ user: ada, authToken: "site-token" }), SITE, fakeFetch)
    expect(await readExtensionSession()).not.toBeNull()
    const open = fakePort(SITE_LINK_PORT_NAME, SITE)
    connect(open)
    await vi.waitFor(() => expect(open.posted).toHaveLength(1))
    open.close()

    // Only an extension page may ask; a content script (sender = a web page) may not.
    expect(await sendInternal({ type: SIGN_OUT_REQUEST }, { id: fake.runtime.id, url: "https://example.com/", tab: {} })).toBeUndefined()
    expect(await readExtensionSession()).not.toBeNull()
    expect(await sendInternal({ type: SIGN_OUT_REQUEST }, { id: fake.runtime.id, url: `${EXTENSION}/popup.html` })).toEqual({ success: true })
    expect(fake.storage.local.items.has(EXTENSION_SESSION_KEY)).toBe(false)
    expect(await pendingSiteLogoutItem.get()).toBe(true)

    // The next page's sync does not sign the extension back in; it gets the logout request.
    const answer = await handleSiteMessage(websiteSyncMessage({ user: ada, authToken: "site-token" }), SITE, fakeFetch)
    expect(answer).toEqual({ success: false, error: SIGNED_OUT_IN_EXTENSION_ERROR })
    expect(await readExtensionSession()).toBeNull()
    const next = fakePort(SITE_LINK_PORT_NAME, SITE)
    connect(next)
    await vi.waitFor(() => expect(next.posted).toHaveLength(1))
    expect(next.posted[0]!.type).toBe(EXTENSION_LOGOUT_REQUEST)
    next.answer({ success: true })
    await vi.waitFor(async () => expect(await pendingSiteLogoutItem.get()).toBe(false))
    next.close()
  })

  it("forgets a pending logout when the user signs in on the site again", async () => {
    await fake.storage.local.set({ [pendingSiteLogoutItem.key]: true })
    expect(await handleSiteMessage(websiteLoginMessage({ user: ada, authToken: "site-token" }), SITE, fakeFetch)).toEqual({ success: true })
    expect(await pendingSiteLogoutItem.get()).toBe(false)
    expect((await readExtensionSession())?.user.email).toBe(ada.email)
  })
})
