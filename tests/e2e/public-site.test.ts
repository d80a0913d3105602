import type { Browser, Page } from "puppeteer-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { seriousAxeViolations } from "./axe"
import { eventually, launchBrowser, screenshot, watchForeignRequests, watchPageErrors } from "./browser"
import { startServer, type RunningServer } from "./server"


interface PublicRoute {
  path: string
  name: string
  heading: string | RegExp
  /** Text the page shows once its content is there. */
  content: string[]
}

const ROUTES: PublicRoute[] = [
  { path: "/", name: "home", heading: "Understand every image on the web with Image Query AI", content: ["Install Extension", "How it works"] },
  { path: "/pricing", name: "pricing", heading: "Pricing", content: ["Most popular", "Select Plan", "Frequently asked questions"] },
  { path: "/payment?plan=pro&annual=true", name: "payment", heading: "Payment: Pro plan", content: ["₹190 / year", "Sign in to continue"] },
  { path: "/blog", name: "blog", heading: "Blog", content: ["Free, Pro or Enterprise: choosing the right plan", "Load more", "Get new posts by e-mail"] },
  { path: "/blog/how-ocr-works", name: "blog-post", heading: "How on-device text extraction works", content: ["Related articles", "#ocr", "Copy link"] },
  { path: "/image-query", name: "image-query", heading: "Image Query AI", content: ["Hide small images", "Ask about selected", "The real Image Query AI lives in the browser extension"] },
  { path: "/terms", name: "terms", heading: "Terms of Service", content: ["Go Back"] },
  { path: "/privacy", name: "privacy", heading: "Privacy Policy", content: ["Go Back"] },
  { path: "/cookies", name: "cookies", heading: "Cookie Policy", content: ["privacy@imagequery.ai", "Go Back"] },
  { path: "/about", name: "about", heading: "About Image Query AI", content: ["Our mission", "Our team", "Create a free account"] },
  { path: "/help", name: "help", heading: "Help Center", content: ["All (12)", "Getting Started (3)", "Still need help?"] },
  { path: "/status", name: "status", heading: "System Status", content: ["All Systems Operational", "Payment Processing", "No Recent Incidents"] },
  { path: "/login", name: "login", heading: "Sign in", content: [] },
  { path: "/register", name: "register", heading: "Create your account", content: [] }
]

describe("the public site served by npm start", () => {
  let server: RunningServer
  let browser: Browser
  let page: Page
  let errors: string[]
  let foreignRequests: string[] = []

  beforeAll(async () => {
    server = await startServer()
    browser = await launchBrowser()
    page = await browser.newPage()
    errors = watchPageErrors(page)
    foreignRequests = watchForeignRequests(page, server.url)
  }, 120_000)

  afterAll(async () => {
    await browser?.close()
    await server?.stop()
  })

  const textOf = () => page.$eval("main", (element) => (element as HTMLElement).innerText)
  const where = () => {
    const url = new URL(page.url())
    return url.pathname + url.search
  }

  /**
   * Opens a route and waits for what it shows: its heading, its key content and its images loaded. Not for the
   * network to fall quiet (networkidle0), which cost half a second after every page: the page's chunks and data are
   * there once its content is.
   */
  async function open(route: PublicRoute) {
    await page.goto(server.url + route.path)
    await page.waitForSelector("main h1")
    await page.waitForFunction(
      (expected: string[]) => expected.every((text) => document.querySelector("main")!.innerText.includes(text)) && [...document.images].every((image) => image.complete || image.loading === "lazy"),
      // Every 50 ms rather than every frame: an image finishing its load changes nothing a mutation would report.
      { timeout: 10_000, polling: 50 },
      route.content
    )
  }

  for (const width of [1280, 375]) {
    describe(`at ${width} px`, () => {
      beforeAll(async () => page.setViewport({ width, height: width === 375 ? 812 : 900 }))

      for (const route of ROUTES) {
        it(`renders ${route.path} with its key content, no console errors and no serious accessibility problems`, async () => {
          errors.length = 0
          await open(route)
          const heading = await page.$eval("main h1", (element) => element.textContent)
          if (typeof route.heading === "string") expect(heading).toBe(route.heading)
          else expect(heading).toMatch(route.heading)
          const text = await textOf()
          for (const expected of route.content) expect(text).toContain(expected)
          // Nothing wider than the viewport: no sideways scrolling on a phone.
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
          expect(overflow).toBeLessThanOrEqual(0)
          await screenshot(page, `public-${route.name}-${width}`)
          expect(await seriousAxeViolations(page)).toEqual([])
          expect(errors).toEqual([])
        })
      }
    })
  }

  it("loads nothing from another origin (no third-party analytics, fonts or images)", () => {
    expect(foreignRequests).toEqual([])
  })

  it("switches the pricing page to annual billing", async () => {
    await page.setViewport({ width: 375, height: 812 })
    await open(ROUTES.find((route) => route.name === "pricing")!)
    const [annual] = await page.$$("xpath/.//button[text()='Annual']")
    await annual!.click()
    await page.waitForFunction(() => document.body.innerText.includes("$190 billed yearly"))
    const text = await textOf()
    expect(text).toContain("$16")
    expect(text).toContain("$990 billed yearly")
    await page.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished)))
    await screenshot(page, "public-pricing-annual-375")
    await page.setViewport({ width: 1280, height: 900 })
  })

  it("gives the blog post its SEO title and description in the document head", async () => {
    await open(ROUTES.find((route) => route.name === "blog-post")!)
    expect(await page.title()).toBe("How on-device OCR works in Image Query AI")
    // The description is set by an effect, which runs after the post is on screen.
    await eventually(
      () => page.$eval('meta[name="description"]', (element) => element.getAttribute("content")),
      (description) => expect(description).toMatch(/^A look inside Image Query AI's text extraction/)
    )
  })

  it("draws the generated sample images of the Image Query page", async () => {
    await open(ROUTES.find((route) => route.name === "image-query")!)
    // An image has its natural width once it is decoded, which may come after the list is rendered.
    await eventually(
      () => page.$$eval("ul[aria-label='Sample images'] img", (images) => images.map((image) => (image as HTMLImageElement).naturalWidth)),
      (sizes) => {
        expect(sizes.length).toBeGreaterThan(20)
        for (const width of sizes) expect([800, 1024, 1200, 1600]).toContain(width)
      }
    )
  })

  it.each([
    ["/payment", "/pricing"],
    ["/payment?plan=gold&annual=true", "/pricing"],
    ["/?mode=verifyEmail&oobCode=abc123&apiKey=key&lang=en", "/verify-email?mode=verifyEmail&oobCode=abc123&apiKey=key&lang=en"],
    ["/?mode=resetPassword&oobCode=xyz789", "/reset-password?mode=resetPassword&oobCode=xyz789"]
  ])("redirects %s to %s", async (from, to) => {
    await page.goto(server.url + from, { waitUntil: "networkidle0" })
    await page.waitForFunction((expected: string) => location.pathname + location.search === expected, { timeout: 10_000 }, to)
    expect(where()).toBe(to)
  })

  it("asks a visitor to sign in before paying, and keeps the chosen plan for after the sign-in", async () => {
    await page.setViewport({ width: 1280, height: 900 })
    await page.goto(`${server.url}/payment?plan=pro&annual=false`, { waitUntil: "networkidle0" })
    // The payment page is a chunk of its own: its link is looked for until it is rendered.
    const signIn = await page.waitForSelector("xpath/.//a[normalize-space()='Sign in to continue']")
    expect(await page.$("input[name='cardNumber']")).toBeNull()
    await signIn!.click()
    await page.waitForFunction(() => location.pathname === "/login", { timeout: 10_000 })
    expect(await page.evaluate(() => (history.state as { usr?: { from?: { pathname: string; search: string } } }).usr?.from)).toMatchObject({
      pathname: "/payment",
      search: "?plan=pro&annual=false"
    })
  })
})
