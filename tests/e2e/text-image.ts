import type { Browser } from "puppeteer-core"

import { sampleTextImageDataUrl } from "~analysis/ocr-sample"

/**
 * Text lines drawn black on white by Chromium, as PNG bytes (see sampleTextImageDataUrl). A font family that is
 * not installed fails here, instead of an OCR test failing later on boxes drawn in its place: text in the family
 * (with a monospace fallback) must measure differently from plain monospace.
 */
export async function drawTextImage(browser: Browser, lines: string[], { family = "sans-serif", size = "bold 64px", minHeight = 0 } = {}): Promise<Buffer> {
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
      `${size} ${family}, monospace`,
      `${size} monospace`
    )
    if (!installed) throw new Error(`The font ${family} is not installed (.ci/run installs the fonts the tests need)`)
    const dataUrl = await page.evaluate(sampleTextImageDataUrl, lines, `${size} ${family}`, minHeight)
    return Buffer.from(dataUrl.replace(/^data:image\/png;base64,/, ""), "base64")
  } finally {
    await page.close()
  }
}
