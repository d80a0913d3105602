import type { Browser } from "puppeteer-core"

import { sampleTextImageDataUrl } from "~analysis/ocr-sample"

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

/**
 * Text lines drawn black on white by Chromium, as PNG bytes (see sampleTextImageDataUrl). A font family that is
 * not installed fails here, instead of an OCR test failing later on boxes drawn in its place: text in the family
 * (with a fallback) must measure differently from the fallback alone: serif for a monospaced family, else
 * monospace. `turn` turns the image clockwise.
 */
/** Text set in columns top to bottom, right to left (as Japanese and Chinese are), drawn by Chromium, as PNG bytes; at least 440 px a side (the panel hides small images). */
export async function drawVerticalTextImage(browser: Browser, columns: string[], { family = "sans-serif", size = "44px", height = 600 } = {}): Promise<Buffer> {
  const page = await browser.newPage()
  try {
    await page.setContent(
      `<div id="text" style="display:inline-block;padding:40px;background:#fff;color:#000;font:${size} ${family};writing-mode:vertical-rl;height:${height}px;min-width:440px"></div>`
    )
    await page.$eval("#text", (element, lines) => (element.innerHTML = lines.map((line) => line.replace(/[<&]/g, "")).join("<br>")), columns)
    await page.evaluate(() => document.fonts.ready)
    return Buffer.from(await (await page.$("#text"))!.screenshot({ type: "png" }))
  } finally {
    await page.close()
  }
}

export async function drawTextImage(browser: Browser, lines: string[], { family = "sans-serif", size = "bold 64px", minHeight = 0, turn = 0 } = {}): Promise<Buffer> {
  const page = await browser.newPage()
  try {
    const installed = await page.evaluate(
      async (text: string, css: string, fallbackCss: string) => {
        await document.fonts.load(css, text)
        const context = document.createElement("canvas").getContext("2d")!
        context.font = css
        const width = context.measureText(text).width
        context.font = fallbackCss
        return width !== context.measureText(text).width
      },
      lines.join(" "),
      `${size} ${family}, ${/mono/i.test(family) ? "serif" : "monospace"}`,
      `${size} ${/mono/i.test(family) ? "serif" : "monospace"}`
    )
    if (!installed) throw new Error(`The font ${family} is not installed (.ci/run installs the fonts the tests need)`)
    let dataUrl = await page.evaluate(sampleTextImageDataUrl, lines, `${size} ${family}`, minHeight)
    if (turn) dataUrl = await page.evaluate(turnedDataUrl, dataUrl, turn)
    return Buffer.from(dataUrl.replace(/^data:image\/png;base64,/, ""), "base64")
  } finally {
    await page.close()
  }
}
