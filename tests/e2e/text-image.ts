import type { Browser, Page } from "puppeteer-core"

import { sampleTextImageDataUrl } from "~engine-check/ocr-sample"

import type { WebFont } from "./test-fonts"

/** The PNG turned `degrees` clockwise (a multiple of 90), in the page. */
async function turnedDataUrl(dataUrl: string, degrees: number): Promise<string> {
  const image = new Image()
  image.src = dataUrl
  await image.decode()
  const sideways = degrees % 180 !== 0
  const canvas = document.createElement("canvas")
  canvas.width = sideways ? image.height : image.width
  canvas.height = sideways ? image.width : image.height
  const context = canvas.getContext("2d")!
  context.translate(canvas.width / 2, canvas.height / 2)
  context.rotate((degrees * Math.PI) / 180)
  context.drawImage(image, -image.width / 2, -image.height / 2)
  return canvas.toDataURL("image/png")
}

/** The CSS family name of an installed family or a WebFont, and the @font-face rules the page needs for it. */
const familyOf = (family: string | WebFont) => (typeof family === "string" ? { name: family, faces: "" } : { name: family.family, faces: family.faces })

/**
 * Waits until the page has loaded `name` for `css` (size and family) and `text`, and checks that it draws the text:
 * measured in the family (with a fallback) it must differ from the fallback alone (serif for a monospaced family,
 * else monospace), or the test would go on with boxes drawn in the fallback's place.
 */
async function checkFamilyDraws(page: Page, name: string, size: string, text: string): Promise<void> {
  const fallback = /mono/i.test(name) ? "serif" : "monospace"
  const drawn = await page.evaluate(
    async (sample: string, css: string, fallbackCss: string) => {
      await document.fonts.load(css, sample)
      await document.fonts.ready
      const context = document.createElement("canvas").getContext("2d")!
      context.font = css
      const width = context.measureText(sample).width
      context.font = fallbackCss
      return width !== context.measureText(sample).width
    },
    text,
    `${size} ${name}, ${fallback}`,
    `${size} ${fallback}`
  )
  if (!drawn) throw new Error(`The font ${name} does not draw "${text}" in the test page`)
}

/**
 * Text set in columns top to bottom, right to left (as Japanese and Chinese are), drawn by Chromium, as PNG bytes; at
 * least 440 px a side (the panel hides small images). `family`: installed, or a WebFont the page loads (test-fonts.ts).
 */
export async function drawVerticalTextImage(
  browser: Browser,
  columns: string[],
  { family = "sans-serif" as string | WebFont, size = "44px", height = 600 } = {}
): Promise<Buffer> {
  const page = await browser.newPage()
  try {
    const { name, faces } = familyOf(family)
    await page.setContent(
      `<style>${faces}</style><div id="text" style="display:inline-block;padding:40px;background:#fff;color:#000;font:${size} ${name};writing-mode:vertical-rl;height:${height}px;min-width:440px"></div>`
    )
    await page.$eval("#text", (element, lines) => (element.innerHTML = lines.map((line) => line.replace(/[<&]/g, "")).join("<br>")), columns)
    await checkFamilyDraws(page, name, size, columns.join(""))
    return Buffer.from(await (await page.$("#text"))!.screenshot({ type: "png" }))
  } finally {
    await page.close()
  }
}

/**
 * Text lines drawn black on white by Chromium, as PNG bytes (see sampleTextImageDataUrl). `family`: installed, or a
 * WebFont the page loads (test-fonts.ts). `turn` turns the image clockwise.
 */
export async function drawTextImage(
  browser: Browser,
  lines: string[],
  { family = "sans-serif" as string | WebFont, size = "bold 64px", minHeight = 0, turn = 0 } = {}
): Promise<Buffer> {
  const page = await browser.newPage()
  try {
    const { name, faces } = familyOf(family)
    if (faces) await page.setContent(`<style>${faces}</style>`)
    await checkFamilyDraws(page, name, size, lines.join(" "))
    let dataUrl = await page.evaluate(sampleTextImageDataUrl, lines, `${size} ${name}`, minHeight)
    if (turn) dataUrl = await page.evaluate(turnedDataUrl, dataUrl, turn)
    return Buffer.from(dataUrl.replace(/^data:image\/png;base64,/, ""), "base64")
  } finally {
    await page.close()
  }
}
