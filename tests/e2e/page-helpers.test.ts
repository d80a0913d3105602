/**
 * The helpers the browser tests act through, against the pages that made CI runs fail: one that moves under the
 * pointer, as the organisation page did when its cards finished loading while the brand's colour was being filled
 * ("Node is either not clickable"), and one that closes itself within a click, as the reverse search's Cancel does.
 */
import type { Browser, Page } from "puppeteer-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { clickAndWaitForClose, launchBrowser } from "./browser"
import { fillField } from "./forms"

/** A card above the field that grows the moment the pointer moves, before the button goes down. */
const SHIFTING_PAGE = `<!doctype html><meta charset="utf-8"><title>Moving form</title>
<div id="card" style="height: 40px">Loading</div>
<label for="colour">Accent colour</label> <input id="colour" value="#123456">
<label for="name">Display name</label> <input id="name" value="Acme">
<script>
  document.addEventListener("mousemove", () => { document.getElementById("card").style.height = "3000px" }, { once: true })
</script>`

describe("fillField", () => {
  let browser: Browser
  let page: Page

  beforeAll(async () => {
    browser = await launchBrowser()
    page = await browser.newPage()
    await page.setViewport({ width: 1280, height: 900 })
  })

  afterAll(async () => {
    await browser?.close()
  })

  it("fills the field the label names while what is above it grows, and leaves the other fields as they were", async () => {
    await page.setContent(SHIFTING_PAGE)
    await fillField(page, "Accent colour", "#0a7d5a")
    const values = await page.$$eval("input", (inputs) => inputs.map((input) => input.value))
    expect(values).toEqual(["#0a7d5a", "Acme"])
  })

  it("says which field did not take the value, where a page refuses what is typed", async () => {
    await page.setContent(`<label for="code">Code</label> <input id="code" maxlength="2">`)
    await expect(fillField(page, "Code", "12345")).rejects.toThrow(`The field labelled "Code" does not hold "12345" after three tries`)
  })
})

describe("clickAndWaitForClose", () => {
  let browser: Browser

  beforeAll(async () => {
    browser = await launchBrowser()
  })

  afterAll(async () => {
    await browser?.close()
  })

  it("waits for the close of a page that closes itself before the click's mouse-up is answered", async () => {
    const page = await browser.newPage()
    await page.setContent(`<button onmousedown="window.close()">Cancel</button>`)
    const cancel = (await page.waitForSelector("button"))!
    // The button held down a while, as a busy machine does: the page is gone before the mouse-up.
    await clickAndWaitForClose(page, () => cancel.click({ delay: 300 }))
    expect(page.isClosed()).toBe(true)
  })

  it("passes on a failure that is not the close", async () => {
    const page = await browser.newPage()
    await page.setContent(`<p>No button here</p>`)
    await expect(clickAndWaitForClose(page, () => page.click("button", { delay: 0 }))).rejects.toThrow("No element found for selector: button")
    await page.close()
  })
})
