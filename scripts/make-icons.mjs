// Renders the brand mark (the same drawing as src/ui/Logo.tsx) to the PNG icons the extension and
// the site ship. Run by hand after changing the mark: node scripts/make-icons.mjs
import path from "node:path"
import { fileURLToPath } from "node:url"

import puppeteer from "puppeteer-core"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const mark = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32" width="100%" height="100%">
  <rect x="1" y="1" width="30" height="30" rx="8" fill="#3B82F6"/>
  <path d="M7 22l5-6 4 4 3-3 6 5v1H7z" fill="#ffffff" opacity="0.9"/>
  <circle cx="21" cy="11" r="4.5" fill="none" stroke="#ffffff" stroke-width="2"/>
  <circle cx="21" cy="11" r="1.8" fill="#10B981"/>
</svg>`

const browser = await puppeteer.launch({
  executablePath: "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
})
try {
  const page = await browser.newPage()
  for (const [size, file] of [
    [512, "assets/icon.png"],
    [64, "web/public/favicon.png"]
  ]) {
    await page.setViewport({ width: size, height: size })
    await page.setContent(`<html><body style="margin:0;background:transparent">${mark}</body></html>`)
    await page.screenshot({ path: path.join(root, file), omitBackground: true })
    console.log(`wrote ${file}`)
  }
} finally {
  await browser.close()
}
