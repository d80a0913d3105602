/**
 * The interactive API reference (/api/docs) as a developer opens it: served by npm start from our own origin, under
 * the site's content security policy, in a real Chromium. It renders every operation of /api/openapi.json with no
 * console error (a blocked script, style or image is one), loads nothing from elsewhere, and "Try it out" calls the
 * server from the page.
 */
import fs from "node:fs"
import os from "node:os"
import path from "node:path"

import type { Browser, Page } from "puppeteer-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { eventually, launchBrowser, screenshot, watchForeignRequests, watchPageErrors } from "./browser"
import { startServer, type RunningServer } from "./server"

describe("the API reference at /api/docs", () => {
  let server: RunningServer
  let browser: Browser
  let page: Page
  let errors: string[]
  let webRoot: string
  let foreignRequests: string[] = []

  beforeAll(async () => {
    // The reference needs no site: an empty web root spares the web build.
    webRoot = fs.mkdtempSync(path.join(os.tmpdir(), "iqa-e2e-web-"))
    server = await startServer({ WEB_ROOT: webRoot })
    browser = await launchBrowser()
    page = await browser.newPage()
    errors = watchPageErrors(page)
    // A blocked script, style, image or connection is reported in DevTools' console through the Log domain, which
    // Puppeteer's console event leaves out; and to the page as a securitypolicyviolation event.
    const session = await page.createCDPSession()
    session.on("Log.entryAdded", ({ entry }) => {
      if (entry.level === "error") errors.push(`${entry.source}: ${entry.text}`)
    })
    await session.send("Log.enable")
    await page.evaluateOnNewDocument(() => {
      document.addEventListener("securitypolicyviolation", (event) => console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`))
    })
    foreignRequests = watchForeignRequests(page, server.url)
  }, 120_000)

  afterAll(async () => {
    await browser?.close()
    await server?.stop()
    if (webRoot) fs.rmSync(webRoot, { recursive: true, force: true })
  })

  it("renders every operation of the document under the site's content security policy, with no console error", async () => {
    const response = await page.goto(`${server.url}/api/docs`, { waitUntil: "networkidle0" })
    expect(response?.status()).toBe(200)
    // The same policy as the site's pages (helmet's, server/app.ts), not a looser one of the reference's own.
    const policy = response?.headers()["content-security-policy"] ?? ""
    expect(policy).toContain("script-src 'self'")
    expect(policy).toContain("default-src 'self'")

    const reference = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as { info: { title: string }; paths: Record<string, Record<string, unknown>> }
    const operations = Object.values(reference.paths).reduce((total, methods) => total + Object.keys(methods).length, 0)
    await page.waitForFunction((expected: number) => document.querySelectorAll(".opblock").length >= expected, { timeout: 20_000 }, operations)
    expect(await page.$eval(".info .title", (element) => element.textContent)).toContain(reference.info.title)
    expect(await page.$$eval(".opblock", (blocks) => blocks.length)).toBe(operations)
    await screenshot(page, "api-docs")
    expect(errors).toEqual([])
  })

  it("calls the server from the page with Try it out", async () => {
    const status = await page.waitForSelector(".opblock-summary-path[data-path='/api/status']")
    await status!.click()
    await (await page.waitForSelector(".opblock.is-open .try-out__btn"))!.click()
    await (await page.waitForSelector(".opblock.is-open .execute"))!.click()
    // The live answer, as swagger-ui shows it under "Server response": the status's code and its JSON body.
    const shownText = () => page.$eval(".opblock.is-open", (element) => (element as HTMLElement).innerText)
    await eventually(shownText, (text) => expect(text).toContain("Server response"), 15_000)
    const shown = await shownText()
    expect(shown).toMatch(/Server response\s+Code\s+Details\s+200\b/)
    expect(shown).toContain('"success": true')
    expect(errors).toEqual([])
  })

  it("loads nothing from another origin", () => {
    expect(foreignRequests).toEqual([])
  })
})
