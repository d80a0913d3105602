import type { Browser, Page } from "puppeteer-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { eventually, launchBrowser, screenshot, watchPageErrors } from "./browser"
import { startServer, type RunningServer } from "./server"

describe("the site served by npm start", () => {
  let server: RunningServer
  let browser: Browser
  let page: Page
  let errors: string[]

  /** Waits for the page's level-1 heading to read `expected`: React renders a route after its URL is set. */
  const expectHeading = (expected: string) =>
    eventually(
      () => page.$eval("main h1", (element) => element.textContent),
      (heading) => expect(heading).toBe(expected)
    )
  const path = () => {
    const url = new URL(page.url())
    return url.pathname + url.search + url.hash
  }

  beforeAll(async () => {
    server = await startServer()
    browser = await launchBrowser()
    page = await browser.newPage()
    await page.setViewport({ width: 1280, height: 900 })
    errors = watchPageErrors(page)
  })

  afterAll(async () => {
    await browser?.close()
    await server?.stop()
  })

  it("renders the home page with the bundled Inter font and no console errors", async () => {
    await page.goto(server.url)
    await expectHeading("Understand every image on the web with Image Query AI")
    expect(await page.title()).toBe("Image Query AI")
    const interLoaded = await page.evaluate(async () => {
      await document.fonts.ready
      return document.fonts.check("16px Inter")
    })
    expect(interLoaded).toBe(true)
    // The brand primary (#3B82F6) colours the feature icons; buttons carrying white text use a darker blue for contrast.
    const brandIcon = await page.$eval("#features svg", (element) => getComputedStyle(element).color)
    expect(brandIcon).toBe("rgb(59, 130, 246)")
    await screenshot(page, "site-home-1280")
    expect(errors).toEqual([])
  })

  it("takes the Features link to the landing page's features section", async () => {
    await page.goto(`${server.url}/pricing`, { waitUntil: "networkidle0" })
    await page.click("nav[aria-label='Main'] a[href='/#features']")
    await page.waitForFunction(() => {
      const features = document.getElementById("features")
      return features !== null && Math.abs(features.getBoundingClientRect().top) < 120
    })
    expect(path()).toBe("/#features")
  })

  it("shows the not-found page with Go back and Go home, and both work", async () => {
    await page.goto(`${server.url}/pricing`)
    await page.goto(`${server.url}/admin/no-such-area`)
    await expectHeading("Page not found")
    await screenshot(page, "site-not-found")

    await page.click("xpath/.//button[normalize-space()='Go back']")
    await page.waitForFunction(() => location.pathname === "/pricing")
    await expectHeading("Pricing")

    await page.goto(`${server.url}/no/such/page`)
    // The not-found page is a chunk of its own: click once it is rendered.
    await (await page.waitForSelector("xpath/.//main//a[normalize-space()='Go home']"))!.click()
    await page.waitForFunction(() => location.pathname === "/")
    await expectHeading("Understand every image on the web with Image Query AI")
  })

  it("redirects /app to /dashboard and a visitor on to /login", async () => {
    await page.goto(`${server.url}/app`)
    await page.waitForFunction(() => location.pathname === "/login")
    await expectHeading("Sign in")
  })

  it("forwards an e-mail verification link, keeping only mode, oobCode, apiKey and lang", async () => {
    await page.goto(`${server.url}/?mode=verifyEmail&oobCode=abc123&apiKey=key&lang=en&utm=mail`)
    await page.waitForFunction(() => location.pathname === "/verify-email")
    expect(path()).toBe("/verify-email?mode=verifyEmail&oobCode=abc123&apiKey=key&lang=en")
    await expectHeading("Verify your email")
    // The made-up code is refused by the server (the browser logs that 400): the page says so.
    await page.waitForFunction(() => document.body.innerText.includes("This verification link is invalid or has expired."))
    // The console message of the refused request reaches this process on its own: wait for it too.
    const refused = await eventually(
      async () => errors.findIndex((error) => error.includes("status of 400")),
      (index) => expect(index).toBeGreaterThanOrEqual(0)
    )
    errors.splice(refused, 1)
  })

  it("scrolls to the top when the path changes", async () => {
    await page.goto(server.url)
    // The landing page is a chunk of its own: scroll once it is there.
    await page.waitForSelector("#features")
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight))
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(200)
    await page.click("footer a[href='/about']")
    await page.waitForFunction(() => location.pathname === "/about")
    await page.waitForFunction(() => window.scrollY === 0)
  })

  it("offers the same items in the mobile menu at 375 px", async () => {
    await page.setViewport({ width: 375, height: 800 })
    try {
      await page.goto(server.url)
      const mainNav = await page.waitForSelector("nav[aria-label='Main']")
      expect(await mainNav!.isVisible()).toBe(false)
      await page.click("button[aria-label='Open menu']")
      await eventually(
        () => page.$$eval("#mobile-menu a", (links) => links.map((link) => link.textContent?.trim())),
        (items) => expect(items).toEqual(["Home", "Features", "Pricing", "Blog", "Login", "Sign up"])
      )
      await screenshot(page, "site-home-375-menu")
      await page.click("xpath/.//*[@id='mobile-menu']//a[normalize-space()='Sign up']")
      await page.waitForFunction(() => location.pathname === "/register")
      // The URL changes before React renders the new location, which closes the menu.
      await eventually(
        () => page.$("#mobile-menu"),
        (menu) => expect(menu).toBeNull()
      )
    } finally {
      await page.setViewport({ width: 1280, height: 900 })
    }
  })

  it("reached every page above without a console error or CSP violation", () => {
    expect(errors).toEqual([])
  })
})

describe("npm start", () => {
  // Starting the server may take as long as the other files' set-up (startServer waits up to 90 s).
  it("stops cleanly on SIGTERM", async () => {
    const server = await startServer()
    expect(await server.stop()).toBe(0)
    expect(server.output()).toMatch(/serving the site and \/api on http:\/\/127\.0\.0\.1:\d+/)
  }, 120_000)
})
