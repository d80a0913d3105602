/** The page the area capture is tested and measured on, and how to drag over it. */
import type { Page } from "puppeteer-core"

export const CANVAS_LINES = ["CANVAS TEXT 42", "CAPTURED HERE"]

/** Text that exists only as pixels: drawn on a <canvas> (no <img> to find), next to an SVG and page text. */
export const VIDEO_LINE = "VIDEO FRAME 7"

export const CAPTURE_FIXTURE_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Capture fixture</title>
<style>body{margin:24px;font-family:'DejaVu Sans',sans-serif} canvas{display:block;margin:24px 0 24px 40px;border:1px solid #ccc}</style></head>
<body>
<h1>Capture fixture</h1>
<p>Text in the page itself, beside a canvas and an SVG.</p>
<canvas id="drawn" width="620" height="240" aria-label="Drawn text"></canvas>
<svg width="300" height="80" role="img" aria-label="Vector text"><rect width="300" height="80" fill="#eef"/><text x="16" y="52" font-size="32" font-family="DejaVu Sans">SVG WORDS</text></svg>
<video id="clip" width="480" height="120" muted playsinline aria-label="A paused video"></video>
<script>
  const lines = ${JSON.stringify(CANVAS_LINES)}
  const font = "bold 52px 'DejaVu Sans'"
  document.fonts.load(font, lines.join(" ")).then(() => {
    const canvas = document.getElementById("drawn")
    const context = canvas.getContext("2d")
    context.fillStyle = "#ffffff"
    context.fillRect(0, 0, canvas.width, canvas.height)
    context.fillStyle = "#000000"
    context.font = font
    context.textBaseline = "top"
    lines.forEach((line, index) => context.fillText(line, 30, 40 + index * 90))
    // A video whose frame shows text, paused on that frame: its pixels come from the media pipeline, not the DOM.
    const source = document.createElement("canvas")
    source.width = 480
    source.height = 120
    const frame = source.getContext("2d")
    frame.fillStyle = "#ffffff"
    frame.fillRect(0, 0, 480, 120)
    frame.fillStyle = "#000000"
    frame.font = font
    frame.textBaseline = "top"
    frame.fillText(${JSON.stringify(VIDEO_LINE)}, 20, 30)
    const video = document.getElementById("clip")
    video.srcObject = source.captureStream()
    video.addEventListener("playing", () => {
      video.pause()
      requestAnimationFrame(() => { document.body.dataset.drawn = "true" })
    }, { once: true })
    void video.play()
  })
</script>
</body></html>`

/** The canvas's box in the page's viewport (CSS pixels). */
export function canvasBox(page: Page) {
  return page.$eval("#drawn", (canvas) => {
    const { x, y, width, height } = canvas.getBoundingClientRect()
    return { x, y, width, height }
  })
}

/** Whether the overlay is on the page: its host is the last element of <html> (its contents are in a closed root). */
export function overlayShown(page: Page) {
  return page.evaluate(() => (document.documentElement.lastElementChild as HTMLElement | null)?.style.zIndex === "2147483647")
}

/** Drags from the canvas's bottom right to its top left, a few pixels inside: up and left, as the overlay allows. */
export async function dragOverCanvas(page: Page, box: { x: number; y: number; width: number; height: number }, midway?: () => Promise<void>) {
  await page.mouse.move(box.x + box.width - 4, box.y + box.height - 4)
  await page.mouse.down()
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 5 })
  await page.mouse.move(box.x + 4, box.y + 4, { steps: 5 })
  await midway?.()
  await page.mouse.up()
}
