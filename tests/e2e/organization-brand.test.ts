/**
 * White-label in the built extension (issue 26, point 4): an Enterprise subscriber makes "Acme", gives it an accent
 * colour and a logo, and signs in to the extension; the side panel's header and the popup show Acme's name, logo and
 * colour. A colour changed on the site shows when the panel is focused again (the profile is read again), the brand
 * stays with the service unreachable (kept in storage, the logo as a data: URL), and it goes, logo and all, when the
 * organisation does.
 */
import fs from "node:fs"
import os from "node:os"
import path from "node:path"

import type { Browser, Page } from "puppeteer-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { TEST_CARD_SUCCEEDS } from "~core/billing"
import { seriousAxeViolations } from "./axe"
import { apiOf, registerVerifiedAccount, type Api } from "./api-client"
import { eventually, inWorker, installExtension, launchBrowser, type LoadedExtension, openExtensionSession, openSidePanel, screenshot, SCREENSHOT_DIR, waitForPageText, watchPageErrors } from "./browser"
import { serveFixtures, startServer, type RunningServer } from "./server"

const EMAIL = "acme.owner@example.com"
const PASSWORD = "Green-Anchor-61!"
const GREEN = "#0a7d5a"
const YELLOW = "#ffd400"

/** What the header shows, as the browser computed it. */
interface HeaderLook {
  text: string
  background: string
  color: string
  logoAlt: string | null
  logoSrc: string | null
  logoLoaded: boolean
}

const rgb = (hex: string) => `rgb(${parseInt(hex.slice(1, 3), 16)}, ${parseInt(hex.slice(3, 5), 16)}, ${parseInt(hex.slice(5, 7), 16)})`

describe("an organisation's brand in the extension", () => {
  let folder: string
  let fixtures: Awaited<ReturnType<typeof serveFixtures>>
  let server: RunningServer
  let api: Api
  let token: string
  let browser: Browser
  let extension: LoadedExtension
  let page: Page
  let panel: Page
  let panelErrors: string[]

  const look = (target: Page, selector: string) =>
    target.$eval(selector, (element) => {
      const logo = element.querySelector<HTMLImageElement>("[data-testid='brand-logo']")
      const style = getComputedStyle(element)
      return {
        text: (element as HTMLElement).innerText,
        background: style.backgroundColor,
        color: style.color,
        logoAlt: logo?.alt ?? null,
        logoSrc: logo?.src ?? null,
        logoLoaded: Boolean(logo?.complete && logo.naturalWidth > 0)
      } satisfies HeaderLook
    })
  const headerLook = () => look(panel, "[data-testid='panel-header']")
  const storedLogo = () => inWorker(extension.worker, async () => ((await chrome.storage.local.get("organizationLogo")) as { organizationLogo?: { url: string; dataUrl: string } }).organizationLogo ?? null)
  /** The panel comes back to the front: it reads the account again, as after a visit to the site. */
  const focusPanel = () => panel.evaluate(() => void window.dispatchEvent(new Event("focus")))

  async function shoot(target: Page, selector: string, name: string) {
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true })
    await (await target.$(selector))!.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`) })
  }

  /** A logo as a designer would hand it over: a PNG drawn in the browser, a white "A" on a dark disc. */
  async function drawLogo(): Promise<Buffer> {
    const canvasPage = await browser.newPage()
    const dataUrl = await canvasPage.evaluate(() => {
      const canvas = document.createElement("canvas")
      canvas.width = canvas.height = 300
      const context = canvas.getContext("2d")!
      context.fillStyle = "#ffffff"
      context.fillRect(0, 0, 300, 300)
      context.fillStyle = "#12324a"
      context.beginPath()
      context.arc(150, 150, 130, 0, Math.PI * 2)
      context.fill()
      context.fillStyle = "#ffffff"
      context.font = "bold 180px sans-serif"
      context.textAlign = "center"
      context.textBaseline = "middle"
      context.fillText("A", 150, 160)
      return canvas.toDataURL("image/png")
    })
    await canvasPage.close()
    return Buffer.from(dataUrl.split(",")[1]!, "base64")
  }

  beforeAll(async () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), "iqa-brand-"))
    fs.writeFileSync(path.join(folder, "index.html"), `<!doctype html><html lang="en"><title>A page</title><p>Nothing but text.</p>`)
    fixtures = await serveFixtures(folder)
    server = await startServer()
    api = apiOf(server)
    await registerVerifiedAccount(server, { email: EMAIL, password: PASSWORD, name: "Olive Owner" })
    token = (await api("/api/auth/login", { method: "POST", body: { email: EMAIL, password: PASSWORD } })).body.data!.token as string
    const card = { cardNumber: TEST_CARD_SUCCEEDS, expiryMonth: "12", expiryYear: String(new Date().getFullYear() + 2), cvc: "123", cardholderName: "Olive Owner" }
    const paid = await api("/api/billing/test-payment", { method: "POST", token, body: { planId: "enterprise", annual: false, ...card, email: EMAIL, billingAddress: "1 Main Street", country: "US" } })
    expect(paid.status, JSON.stringify(paid.body)).toBeLessThan(300)
    const created = await api("/api/organizations", { method: "POST", token, body: { name: "Acme" } })
    expect(created.status, JSON.stringify(created.body)).toBeLessThan(300)
    expect((await api("/api/organizations/current", { method: "PATCH", token, body: { accentColor: GREEN } })).status).toBe(200)

    browser = await launchBrowser({ extension: true })
    extension = await installExtension(browser)
    const form = new FormData()
    form.append("logo", new Blob([new Uint8Array(await drawLogo())], { type: "image/png" }), "acme.png")
    const uploaded = await fetch(`${server.url}/api/organizations/current/logo`, { method: "PUT", headers: { authorization: `Bearer ${token}` }, body: form })
    expect(uploaded.status, await uploaded.clone().text()).toBe(200)

    // Signed in as the site's sign-in message makes the extension do: its own session from the site's token.
    await openExtensionSession(extension.worker, server.url, token)
    page = await browser.newPage()
    await page.goto(`${fixtures.url}/index.html`, { waitUntil: "load" })
    panel = await openSidePanel(browser, extension, page)
    panelErrors = watchPageErrors(panel)
    await panel.setViewport({ width: 375, height: 700 })
  })

  afterAll(async () => {
    await browser?.close()
    await server?.stop()
    await fixtures?.close()
    if (folder) fs.rmSync(folder, { recursive: true, force: true })
  })

  it("shows the member Acme's name, logo and colour in the side panel's header, readable and kept for offline use", async () => {
    const header = await eventually(headerLook, (found) => {
      expect(found.logoLoaded).toBe(true)
      expect(found.background).toBe(rgb(GREEN))
    }, 20_000)
    expect(header.text).toContain("Acme")
    expect(header.logoAlt).toBe("Acme")
    expect(header.logoSrc).toMatch(/^data:image\/png;base64,/)
    // White on the dark green: well past AA.
    expect(header.color).toBe(rgb("#ffffff"))
    expect(await panel.$eval("[data-testid='brand']", (element) => element.getAttribute("title"))).toBe("Acme · Image Query AI")
    const kept = await storedLogo()
    expect(kept?.dataUrl).toBe(header.logoSrc)
    expect(kept?.url).toMatch(/\/api\/organizations\/[^/]+\/logo\/[^/]+$/)
    await shoot(panel, "[data-testid='panel-header']", "brand-panel-header-green-375")
    await screenshot(panel, "brand-panel-375")
    expect(await seriousAxeViolations(panel)).toEqual([])
    expect(panelErrors).toEqual([])
  })

  it("shows the same brand in the popup", async () => {
    const popup = await browser.newPage()
    await popup.setViewport({ width: 320, height: 480 })
    await popup.goto(`chrome-extension://${extension.id}/popup.html`)
    await waitForPageText(popup, "Olive Owner")
    const band = await eventually(() => look(popup, "[data-testid='popup-brand']"), (found) => expect(found.logoLoaded).toBe(true))
    expect(band).toMatchObject({ background: rgb(GREEN), color: rgb("#ffffff"), logoAlt: "Acme" })
    expect(band.text).toContain("Acme")
    await shoot(popup, "body > div, #__plasmo > div", "brand-popup")
    expect(await seriousAxeViolations(popup)).toEqual([])
    await popup.close()
  })

  it("follows a colour changed on the site when the panel is focused again: black text on yellow", async () => {
    expect((await api("/api/organizations/current", { method: "PATCH", token, body: { accentColor: YELLOW } })).status).toBe(200)
    await focusPanel()
    const header = await eventually(headerLook, (found) => expect(found.background).toBe(rgb(YELLOW)), 15_000)
    expect(header.color).toBe(rgb("#000000"))
    expect(header.logoLoaded).toBe(true)
    await shoot(panel, "[data-testid='panel-header']", "brand-panel-header-yellow-375")
    expect(await seriousAxeViolations(panel)).toEqual([])
  })

  it("keeps the brand, logo included, with the service unreachable", async () => {
    await panel.setOfflineMode(true)
    try {
      await panel.reload({ waitUntil: "load" })
      const header = await eventually(headerLook, (found) => {
        expect(found.logoLoaded).toBe(true)
        expect(found.background).toBe(rgb(YELLOW))
      })
      expect(header.text).toContain("Acme")
      await waitForPageText(panel, "Usage unavailable")
    } finally {
      await panel.setOfflineMode(false)
    }
  })

  it("goes, logo and all, when the organisation does", async () => {
    expect((await api("/api/organizations/current", { method: "DELETE", token })).status).toBe(200)
    await focusPanel()
    const header = await eventually(headerLook, (found) => expect(found.text).not.toContain("Acme"), 15_000)
    expect(header.text).toContain("Image Query AI")
    expect(header.logoSrc).toBeNull()
    expect(header.background).toBe(rgb("#ffffff"))
    await eventually(storedLogo, (kept) => expect(kept).toBeNull())
    await shoot(panel, "[data-testid='panel-header']", "brand-panel-header-none-375")
  })
})
