/**
 * The trusted site's messages count only from its top-level page, and a production build trusts a site on this computer
 * only when told. A hostile page of another origin frames a page of the trusted origin, and through that frame (which
 * Chrome's externally_connectable admits by the frame's own URL) tries to sign the extension out, sign it in to the
 * attacker's account and hold the site-link port.
 *
 * The site itself forbids framing (frame-ancestors 'none'), so the framed page here is one the trusted origin serves
 * without that header, as a development server, an old deployment or any other page of the origin may: the extension
 * must not rest on the site's headers. A small HTTP server serves that page and passes every other request on to the
 * real server, and the usual relay gives it the trusted origin.
 */
import fs from "node:fs"
import http from "node:http"
import type net from "node:net"
import os from "node:os"
import path from "node:path"

import type { Browser, Frame, Page } from "puppeteer-core"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"

import { EXTENSION_AUTH_STATUS_REQUEST, SITE_LINK_PORT_NAME, websiteLoginMessage } from "~core/extension-messages"
import { EXTENSION_ID } from "~core/extension-id"
import type { User } from "~core/user"
import { apiOf, registerVerifiedAccount, type Api } from "./api-client"
import { writeSiteOrigins } from "../../scripts/copy-extension-assets.mjs"
import { EXTENSION_DIR, eventually, inWorker, installExtension, launchBrowser, type LoadedExtension, openExtensionSession } from "./browser"
import { serveHostilePage, startServer, type RunningServer } from "./server"
import { relay, trustedLoopbackOrigin } from "./site-relay"

const PASSWORD = "Blue-Harbor-42!"
const VICTIM = { email: "victim.frames@example.com", password: PASSWORD, name: "Vera Victim" }
const ATTACKER = { email: "attacker.frames@example.com", password: PASSWORD, name: "Mallory Attacker" }
const FRAMEABLE_PATH = "/frameable.html"
/** The service worker's refusal of a sender (src/background/site-messages.ts). */
const SENDER_NOT_ALLOWED = "This page may not message Image Query AI"

interface StoredSession {
  user: { email: string }
  token: string
}

/** The trusted origin's server for this file: FRAMEABLE_PATH is a page anyone may frame, the rest is the real server. */
async function frameableSite(apiPort: number): Promise<{ port: number; close(): Promise<void> }> {
  const server = http.createServer((request, response) => {
    if (request.url === FRAMEABLE_PATH) {
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end("<!doctype html><title>Frameable</title><p>A page of the trusted origin</p>")
      return
    }
    const upstream = http.request({ host: "127.0.0.1", port: apiPort, path: request.url, method: request.method, headers: request.headers }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(response)
    })
    upstream.on("error", () => response.destroy())
    request.pipe(upstream)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return { port: (server.address() as net.AddressInfo).port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

/** chrome.runtime as a web page of an externally_connectable origin sees it. */
interface PageRuntime {
  sendMessage(id: string, message: unknown): Promise<unknown>
  connect(id: string, info: { name: string }): {
    onMessage: { addListener(listener: (message: unknown) => void): void }
    onDisconnect: { addListener(listener: () => void): void }
  }
}

/** In `frame`: whether the site-link port it opens is closed by the extension, and what it received meanwhile (10 s). */
function portOutcome(frame: Frame): Promise<{ disconnected: boolean; received: unknown[] }> {
  return frame.evaluate(
    (id: string, name: string) =>
      new Promise<{ disconnected: boolean; received: unknown[] }>((resolve) => {
        const received: unknown[] = []
        const port = (globalThis as unknown as { chrome: { runtime: PageRuntime } }).chrome.runtime.connect(id, { name })
        port.onMessage.addListener((message) => {
          received.push(message)
          resolve({ disconnected: false, received })
        })
        port.onDisconnect.addListener(() => resolve({ disconnected: true, received }))
        setTimeout(() => resolve({ disconnected: false, received }), 10_000)
      }),
    EXTENSION_ID,
    SITE_LINK_PORT_NAME
  )
}

describe("the trusted site, framed by another origin's page, and a build that trusts no site of this computer", () => {
  const trustedOrigin = trustedLoopbackOrigin()
  const siteOrigin = trustedOrigin.origin
  let server: RunningServer
  let api: Api
  let site: Awaited<ReturnType<typeof frameableSite>>
  let siteRelay: { close(): Promise<void> }
  let hostile: Awaited<ReturnType<typeof serveHostilePage>>
  let browser: Browser
  let extension: LoadedExtension
  let victimSession: StoredSession
  let attacker: { user: User; token: string }

  const storedSession = async (): Promise<StoredSession | null> => {
    const raw = await inWorker(extension.worker, async () => (await chrome.storage.local.get("extensionSession")).extensionSession as string | undefined)
    return raw ? (JSON.parse(raw) as StoredSession) : null
  }

  async function signIn(account: { email: string; password: string }): Promise<{ user: User; token: string }> {
    const answer = await api("/api/auth/login", { method: "POST", body: { email: account.email, password: account.password } })
    expect(answer.status).toBe(200)
    return answer.body.data as unknown as { user: User; token: string }
  }

  /** The hostile page, and in it the frame of the trusted origin once chrome.runtime is there (it matches the manifest). */
  async function framedSite(): Promise<{ page: Page; frame: Frame }> {
    const page = await browser.newPage()
    await page.goto(`${hostile.url}/`, { waitUntil: "load" })
    const frame = await eventually(
      async () => page.frames().find((candidate) => candidate.url() === `${siteOrigin}${FRAMEABLE_PATH}`) ?? null,
      (found) => expect(found).not.toBeNull()
    )
    await eventually(
      () => frame!.evaluate(() => typeof (globalThis as unknown as { chrome?: { runtime?: { sendMessage?: unknown } } }).chrome?.runtime?.sendMessage),
      (type) => expect(type).toBe("function")
    )
    return { page, frame: frame! }
  }

  beforeAll(async () => {
    server = await startServer()
    api = apiOf(server)
    site = await frameableSite(server.port)
    siteRelay = await relay(trustedOrigin, site.port)
    hostile = await serveHostilePage(`<p>Hostile</p><iframe src="${siteOrigin}${FRAMEABLE_PATH}" width="400" height="200"></iframe>`)
    browser = await launchBrowser({ extension: true })
    extension = await installExtension(browser)
    await registerVerifiedAccount(server, VICTIM)
    await registerVerifiedAccount(server, ATTACKER)
    // The victim is signed in to the extension, against the site's own service (the one the site may hand sessions to).
    await openExtensionSession(extension.worker, siteOrigin, (await signIn(VICTIM)).token)
    victimSession = (await storedSession())!
    attacker = await signIn(ATTACKER)
  })

  afterAll(async () => {
    await browser?.close()
    await hostile?.close()
    await siteRelay?.close()
    await site?.close()
    await server?.stop()
  })

  it("cannot sign the extension out, nor in to the attacker's account: the frame's messages are refused", async () => {
    expect(victimSession.user.email).toBe(VICTIM.email)
    const { page, frame } = await framedSite()
    const answers = await frame.evaluate(
      async (id: string, login: unknown) => {
        const runtime = (globalThis as unknown as { chrome: { runtime: PageRuntime } }).chrome.runtime
        return [await runtime.sendMessage(id, { type: "WEBSITE_AUTH_LOGOUT", payload: { user: null, tokens: null }, timestamp: Date.now() }), await runtime.sendMessage(id, login)]
      },
      EXTENSION_ID,
      websiteLoginMessage({ user: attacker.user, authToken: attacker.token })
    )
    expect(answers).toEqual([
      { success: false, error: SENDER_NOT_ALLOWED },
      { success: false, error: SENDER_NOT_ALLOWED }
    ])
    // The victim's own session, unchanged and alive.
    expect(await storedSession()).toEqual(victimSession)
    expect((await api("/api/auth/profile", { token: victimSession.token })).status).toBe(200)
    await page.close()
  })

  it("gets no site-link port, while the same page at the top gets one and is heard", async () => {
    const { page, frame } = await framedSite()
    expect(await portOutcome(frame)).toEqual({ disconnected: true, received: [] })
    await page.close()

    // The same page as a top-level page: its port gets the status request, and its messages reach their check.
    const top = await browser.newPage()
    await top.goto(`${siteOrigin}${FRAMEABLE_PATH}`, { waitUntil: "load" })
    const outcome = await portOutcome(top.mainFrame())
    expect(outcome.disconnected).toBe(false)
    expect(outcome.received).toEqual([{ type: EXTENSION_AUTH_STATUS_REQUEST, timestamp: expect.any(Number) }])
    const answer = await top.evaluate(
      (id: string) => (globalThis as unknown as { chrome: { runtime: PageRuntime } }).chrome.runtime.sendMessage(id, { type: "WEBSITE_AUTH_LOGOUT", timestamp: "now" }),
      EXTENSION_ID
    )
    expect(answer).toEqual({ success: false, error: "Invalid message: the timestamp must be a number" })
    expect(await storedSession()).toEqual(victimSession)
    await top.close()
  })

  it("is out of reach in a production build that names no site origin: Chrome loads it, and no page of this computer sees it", async () => {
    // The build under test, finished again as a production build without PLASMO_PUBLIC_SITE_ORIGINS would be.
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "iqa-no-site-"))
    const dir = path.join(folder, "chrome-mv3-prod")
    fs.cpSync(EXTENSION_DIR, dir, { recursive: true })
    vi.stubEnv("PLASMO_PUBLIC_SITE_ORIGINS", "")
    vi.stubEnv("PLASMO_PUBLIC_API_URL", "")
    const other = await launchBrowser({ extension: true })
    try {
      expect(await writeSiteOrigins(dir)).toEqual([])
      expect(JSON.parse(fs.readFileSync(path.join(dir, "manifest.json"), "utf8")).externally_connectable).toEqual({ matches: [] })
      // Chrome takes the empty list: the service worker starts.
      const loaded = await installExtension(other, dir)
      expect(await inWorker(loaded.worker, async () => chrome.runtime.getManifest().externally_connectable)).toEqual({ matches: [] })
      const page = await other.newPage()
      await page.goto(`${siteOrigin}${FRAMEABLE_PATH}`, { waitUntil: "load" })
      expect(await page.evaluate(() => typeof (globalThis as unknown as { chrome?: { runtime?: unknown } }).chrome?.runtime)).toBe("undefined")
    } finally {
      vi.unstubAllEnvs()
      await other.close()
      fs.rmSync(folder, { recursive: true, force: true })
    }
  })
})
