/**
 * A sign to translate over, for the end-to-end test and the bench: a yellow board with two lines of navy capitals,
 * the server with a signed-in Free account, a model stand-in that translates an image's lines as the JSON array
 * the prompt asks for (into French from a small dictionary, otherwise "[<language>] <line>"), and the side panel
 * open on the sign's page.
 */
import fs from "node:fs"
import os from "node:os"
import path from "node:path"

import type { Browser, Page } from "puppeteer-core"

import { completion, sendJson, startStandIn } from "../../server/test-kit/stand-in"
import { apiOf, registerVerifiedAccount } from "./api-client"
import { installExtension, launchBrowser, type LoadedExtension, openExtensionSession, openSidePanel, waitForContentScript } from "./browser"
import { serveFixtures, startServer } from "./server"

export const SIGN = ["EMERGENCY EXIT", "PUSH BAR TO OPEN"]
export const FRENCH: Record<string, string> = { "EMERGENCY EXIT": "SORTIE DE SECOURS", "PUSH BAR TO OPEN": "POUSSER LA BARRE" }
/** The sign's paint: navy letters on yellow. */
export const SIGN_BACKGROUND = [253, 224, 71]
export const SIGN_INK = [30, 58, 138]

const EMAIL = "overlay.user@example.com"
const PASSWORD = "Amber-Signal-73!"

/** The sign drawn by Chromium: two lines of navy capitals on a yellow board, 900 by 465 px (the panel hides images under 400 px high). */
async function drawSign(browser: Browser): Promise<Buffer> {
  const page = await browser.newPage()
  try {
    const [red, green, blue] = SIGN_BACKGROUND
    const [inkRed, inkGreen, inkBlue] = SIGN_INK
    await page.setContent(
      `<div id="sign" style="display:inline-block;width:820px;padding:130px 40px;background:rgb(${red},${green},${blue});color:rgb(${inkRed},${inkGreen},${inkBlue});font:bold 64px sans-serif;line-height:1.6">${SIGN.join("<br>")}</div>`
    )
    await page.evaluate(() => document.fonts.ready)
    return Buffer.from(await (await page.$("#sign"))!.screenshot({ type: "png" }))
  } finally {
    await page.close()
  }
}

export interface SignSetup {
  provider: Awaited<ReturnType<typeof startStandIn>>
  browser: Browser
  extension: LoadedExtension
  page: Page
  panel: Page
  pageUrl: string
  signUrl: string
  close(): Promise<void>
}

export async function startSignSetup(): Promise<SignSetup> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "iqa-overlay-"))
  const provider = await startStandIn((request, response) => {
    const body = JSON.parse(request.body) as { messages: { content: string }[] }
    const target = /into (\w+)\./.exec(body.messages[0]!.content)?.[1]
    const lines = JSON.parse(body.messages[1]!.content) as string[]
    sendJson(response, 200, completion(JSON.stringify(lines.map((line) => (target === "French" ? FRENCH[line] : undefined) ?? `[${target}] ${line}`))))
  })
  const server = await startServer({ OPENAI_BASE_URL: provider.url, OPENAI_API_KEY: "sk-test" })
  await registerVerifiedAccount(server, { email: EMAIL, password: PASSWORD, name: "Overlay User" })
  const siteToken = (await apiOf(server)("/api/auth/login", { method: "POST", body: { email: EMAIL, password: PASSWORD } })).body.data!.token as string

  const browser = await launchBrowser({ extension: true })
  const extension = await installExtension(browser)
  await openExtensionSession(extension.worker, server.url, siteToken)
  fs.writeFileSync(path.join(folder, "sign.png"), await drawSign(browser))
  fs.writeFileSync(path.join(folder, "index.html"), `<!doctype html><html lang="en"><title>Sign</title><img src="sign.png" alt="Exit sign"></html>`)
  const fixtures = await serveFixtures(folder)
  const pageUrl = `${fixtures.url}/index.html`

  const page = await browser.newPage()
  await page.goto(pageUrl, { waitUntil: "load" })
  await waitForContentScript(extension.worker, pageUrl)
  const panel = await openSidePanel(browser, extension, page)
  return {
    provider,
    browser,
    extension,
    page,
    panel,
    pageUrl,
    signUrl: `${fixtures.url}/sign.png`,
    async close() {
      await browser.close()
      await server.stop()
      await provider.close()
      await fixtures.close()
      fs.rmSync(folder, { recursive: true, force: true })
    }
  }
}
