import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"

import { INVALID_TIMESTAMP_ERROR, INVALID_WEBSITE_TYPE_ERROR, websiteLoginMessage, websiteLogoutMessage, websiteSyncMessage } from "~core/extension-messages"
import type { User } from "~core/user"
import { EXTENSION_SESSION_KEY, readExtensionSession } from "~extension/account/extension-session"
import { createFakeChrome, type FakeChrome } from "~extension/browser/fake-chrome.test-support"
import { sentLedgerItem } from "~extension/account/sent-ledger"
import { SITE_ORIGINS } from "~extension/site-link/site-origins"

import { listenToMessages } from "./message-routes"
import { OTHER_SERVICE_ERROR, SENDER_NOT_ALLOWED_ERROR } from "./site-messages"
import { handleSiteMessage } from "./site-messages.test-support"

const SITE = { origin: SITE_ORIGINS[0], url: `${SITE_ORIGINS[0]}/login`, frameId: 0 }
/** The site's own service, which the build pairs the site with: where its token may go. */
const API = SITE_ORIGINS[0]!
const OTHER_API = "https://other-service.example"
const ada: User & { id: string } = { id: "u1", name: "Ada", email: "ada@example.com", role: "user", provider: "email" }
const bob: User & { id: string } = { id: "u2", name: "Bob", email: "bob@example.com", role: "user", provider: "email" }

let fake: FakeChrome
let calls: { url: string; authorization: string | null; body: string | null }[]
let counter = 0

/** A fake API: extension-session opens "ext-N" tokens for the bearer "site-<userId>", logout and refresh answer. */
const fakeFetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
  const request = new Request(input, init)
  const url = request.url
  const authorization = request.headers.get("authorization")
  calls.push({ url, authorization, body: (await request.text()) || null })
  const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } })
  if (url === `${API}/api/auth/extension-session`) {
    const user = authorization === "Bearer site-u1" ? ada : authorization === "Bearer site-u2" ? bob : null
    if (!user) return json(401, { success: false, error: { code: "UNAUTHORIZED", message: "Please sign in to continue." } })
    counter += 1
    return json(200, { success: true, data: { user, token: `ext-${counter}`, refreshToken: `ext-refresh-${counter}`, expiresAt: Math.floor(Date.now() / 1000) + 3600 } })
  }
  if (url === `${API}/api/auth/logout`) return json(200, { success: true, data: { loggedOut: true } })
  return json(404, { success: false, error: { message: "not found" } })
}) as unknown as typeof fetch

beforeEach(async () => {
  fake = createFakeChrome()
  vi.stubGlobal("chrome", fake)
  await fake.storage.local.set({ apiOrigin: API })
  calls = []
  counter = 0
})
afterEach(() => {
  vi.unstubAllGlobals()
})

/** A sign-in as an older site sent it, with the site's refresh token in it: the extension must ignore that token. */
const login = (user: User & { id: string }) => {
  const message = websiteLoginMessage({ user, authToken: `site-${user.id}` })
  return { ...message, payload: { ...message.payload, tokens: { ...message.payload.tokens, refreshToken: `site-refresh-${user.id}` } } }
}

describe("handleSiteMessage", () => {
  it("answers {success: false, error} to a page outside the site's origins and does nothing", async () => {
    for (const sender of [undefined, {}, { origin: "http://evil.example", url: "http://evil.example/" }, { id: "otherextension", url: "chrome-extension://otherextension/a.html" }]) {
      await expect(handleSiteMessage(login(ada), sender, fakeFetch)).resolves.toEqual({ success: false, error: SENDER_NOT_ALLOWED_ERROR })
    }
    expect(calls).toEqual([])
    expect(await readExtensionSession()).toBeNull()
  })

  it("hands the site's token to no other service: after Settings point the extension elsewhere, a page of the site is refused and nothing is sent", async () => {
    await fake.storage.local.set({ apiOrigin: OTHER_API })
    for (const message of [login(ada), websiteSyncMessage({ user: ada, authToken: "site-u1" })]) {
      await expect(handleSiteMessage(message, SITE, fakeFetch)).resolves.toEqual({ success: false, error: OTHER_SERVICE_ERROR })
    }
    expect(calls).toEqual([])
    expect(await readExtensionSession()).toBeNull()
    // The site's logout carries no token: it may still end the extension's session.
    await expect(handleSiteMessage(websiteLogoutMessage(), SITE, fakeFetch)).resolves.toEqual({ success: true })
  })

  it("takes the site rendered in its own tab page whatever service it is set to: that page talks to the current service", async () => {
    await fake.storage.local.set({ apiOrigin: OTHER_API })
    const ownTab = { id: fake.runtime.id, url: fake.runtime.getURL("tabs/site.html") }
    const otherCalls: string[] = []
    const otherFetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init)
      otherCalls.push(request.url)
      return new Response(JSON.stringify({ success: true, data: { user: ada, token: "ext-other", refreshToken: "ext-other-refresh", expiresAt: Math.floor(Date.now() / 1000) + 3600 } }), { status: 200, headers: { "content-type": "application/json" } })
    }) as typeof fetch
    await expect(handleSiteMessage(login(ada), ownTab, otherFetch)).resolves.toEqual({ success: true })
    expect(otherCalls).toEqual([`${OTHER_API}/api/auth/extension-session`])
  })

  it("keeps no session opened while Settings moved to another service: the token went to the address checked, the session is dropped", async () => {
    const slowFetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      await fake.storage.local.set({ apiOrigin: OTHER_API })
      return fakeFetch(input, init)
    }) as typeof fetch
    const answer = await handleSiteMessage(login(ada), SITE, slowFetch)
    expect(answer).toMatchObject({ success: false })
    expect(calls.map((call) => call.url)).toEqual([`${API}/api/auth/extension-session`])
    expect(await readExtensionSession()).toBeNull()
  })

  it("answers {success: false, error} to a malformed message", async () => {
    await expect(handleSiteMessage({ type: "WEBSITE_AUTH_LOGIN", timestamp: "now" }, SITE, fakeFetch)).resolves.toEqual({
      success: false,
      error: INVALID_TIMESTAMP_ERROR
    })
    expect(calls).toEqual([])
  })

  it("opens its own session with the site's token once, stores it under one key and never stores the site's token", async () => {
    await expect(handleSiteMessage(login(ada), SITE, fakeFetch)).resolves.toEqual({ success: true })
    await expect(handleSiteMessage(websiteSyncMessage({ user: { ...ada, name: "Ada L." }, authToken: "site-u1" }), SITE, fakeFetch)).resolves.toEqual({ success: true })
    expect(calls.map((call) => [call.url, call.authorization])).toEqual([[`${API}/api/auth/extension-session`, "Bearer site-u1"]])

    const session = await readExtensionSession()
    expect(session).toMatchObject({ user: { email: "ada@example.com", name: "Ada L." }, token: "ext-1", refreshToken: "ext-refresh-1" })
    expect(session!.expiresAt).toBeGreaterThan(Date.now() + 50 * 60_000)
    const stored = JSON.stringify([...fake.storage.local.items.entries()])
    expect(stored).not.toContain("site-u1")
    expect(stored).not.toContain("site-refresh")
    expect(JSON.stringify(calls)).not.toContain("site-refresh")
    // Beside the session, only the record of what was sent: the one sign-in request, without the token.
    await vi.waitFor(async () => expect((await sentLedgerItem.get()).map((entry) => entry.kind)).toEqual(["signIn"]))
    expect([...fake.storage.local.items.keys()].sort()).toEqual(["apiOrigin", EXTENSION_SESSION_KEY, sentLedgerItem.key])
  })

  it("handles a sign-in followed at once by a sync with one session", async () => {
    const answers = await Promise.all([handleSiteMessage(login(ada), SITE, fakeFetch), handleSiteMessage(websiteSyncMessage({ user: ada, authToken: "site-u1" }), SITE, fakeFetch)])
    expect(answers).toEqual([{ success: true }, { success: true }])
    expect(calls.filter((call) => call.url.endsWith("/extension-session"))).toHaveLength(1)
  })

  it("replaces the session of another user: logs the old one out first", async () => {
    await handleSiteMessage(login(ada), SITE, fakeFetch)
    await handleSiteMessage(login(bob), SITE, fakeFetch)
    expect(calls.map((call) => [call.url, call.authorization])).toEqual([
      [`${API}/api/auth/extension-session`, "Bearer site-u1"],
      [`${API}/api/auth/logout`, "Bearer ext-1"],
      [`${API}/api/auth/extension-session`, "Bearer site-u2"]
    ])
    expect(await readExtensionSession()).toMatchObject({ user: { email: "bob@example.com" }, token: "ext-2" })
  })

  it("ends its session on WEBSITE_AUTH_LOGOUT with its own token", async () => {
    await handleSiteMessage(login(ada), SITE, fakeFetch)
    await expect(handleSiteMessage(websiteLogoutMessage(), SITE, fakeFetch)).resolves.toEqual({ success: true })
    expect(calls.at(-1)).toEqual({ url: `${API}/api/auth/logout`, authorization: "Bearer ext-1", body: JSON.stringify({ refreshToken: "ext-refresh-1" }) })
    expect(await readExtensionSession()).toBeNull()
  })

  it("answers the service's refusal as {success: false, error}", async () => {
    const stranger = { ...ada, id: "u9" }
    await expect(handleSiteMessage(login(stranger), SITE, fakeFetch)).resolves.toEqual({ success: false, error: "Please sign in to continue." })
    expect(await readExtensionSession()).toBeNull()
  })
})

describe("listenToMessages", () => {
  it("registers an onMessageExternal listener that answers asynchronously", async () => {
    listenToMessages(fake.runtime as unknown as typeof chrome.runtime)
    const [listener] = [...fake.runtime.onMessageExternal.listeners] as ((message: unknown, sender: unknown, respond: (answer: unknown) => void) => unknown)[]
    const answered = new Promise((resolve) => expect(listener!({ type: "nope", timestamp: 1 }, SITE, resolve)).toBe(true))
    await expect(answered).resolves.toEqual({ success: false, error: INVALID_WEBSITE_TYPE_ERROR })
  })
})
