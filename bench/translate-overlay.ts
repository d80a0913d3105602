// The translation laid over an image, through the built extension: from the click on Translate to the translated
// lines painted over the sign (the request to our server and the model stand-in on loopback, the answer, Show on
// image, the colours sampled from the image, the layer drawn). The first run samples the image's colours; the later
// ones reuse them. Run alone with `node --import tsx bench/translate-overlay.ts`, or call measureTranslateOverlay().
import os from "node:os"

import { SIGN, startSignSetup } from "../tests/e2e/translate-fixture"
import { median, runIfMain } from "./figures"

/** A Free account has 10 requests a month: one first run and five more. */
const WARM_RUNS = 5
const TIMEOUT_MS = 120_000

export interface TranslateOverlayFigures {
  /** Click on Translate to the translation shown under the text, ms. */
  answerMs: number[]
  /** Click on Translate to the lines painted over the image (Show on image clicked as soon as it shows), ms. */
  shownMs: number[]
  medianShownMs: number
}

export async function measureTranslateOverlay(): Promise<{ figures: TranslateOverlayFigures; lines: string[] }> {
  const setup = await startSignSetup()
  const { panel } = setup
  const button = (text: string) => `xpath/.//button[normalize-space()='${text}']`
  async function clickMidView(selector: string) {
    const element = (await panel.waitForSelector(selector, { timeout: TIMEOUT_MS }))!
    await element.evaluate((found) => found.scrollIntoView({ block: "center" }))
    await element.click()
  }
  try {
    await (await panel.waitForSelector(`li[data-url='${setup.signUrl}'] > button`, { timeout: TIMEOUT_MS }))!.click()
    await (await panel.waitForSelector(button("Text (OCR)")))!.click()
    await panel.waitForFunction((count: number) => document.querySelectorAll("[data-testid='text-layer'] [data-line]").length === count, { timeout: TIMEOUT_MS }, SIGN.length)
    const answerMs: number[] = []
    const shownMs: number[] = []
    for (let run = 0; run <= WARM_RUNS; run++) {
      console.error(`Translate overlay bench: run ${run + 1} of ${WARM_RUNS + 1}…`)
      // Back to the original, so that each run paints the layer anew.
      const original = await panel.$(button("Original"))
      if (original) await original.click()
      await panel.waitForSelector("[data-testid='translated-layer']", { hidden: true })
      const translate = (await panel.waitForSelector(button("Translate")))!
      await translate.evaluate((found) => found.scrollIntoView({ block: "center" }))
      const startedAt = Date.now()
      await translate.click()
      await panel.waitForFunction((count: number) => document.querySelectorAll("[data-testid='translation']").length === 1 && document.querySelector("[aria-busy='true']") === null && count > 0, { timeout: TIMEOUT_MS, polling: 10 }, 1)
      answerMs.push(Date.now() - startedAt)
      await clickMidView(button("Show on image"))
      await panel.waitForFunction((count: number) => document.querySelectorAll("[data-testid='translated-layer'] [data-line]").length === count, { timeout: TIMEOUT_MS, polling: 10 }, SIGN.length)
      shownMs.push(Date.now() - startedAt)
    }
    const warm = shownMs.slice(1)
    const figures: TranslateOverlayFigures = { answerMs, shownMs, medianShownMs: Math.round(median(warm)) }
    const lines = [
      `Translation over the image (click on Translate to the lines painted; model stand-in on loopback; load average ${os.loadavg()[0]!.toFixed(1)} at the end):`,
      `  first (colours sampled from the image): ${shownMs[0]} ms, of which the answer ${answerMs[0]} ms`,
      `  later, median of ${warm.length}: ${figures.medianShownMs} ms (runs: ${warm.join(", ")} ms; answers ${answerMs.slice(1).join(", ")} ms)`
    ]
    return { figures, lines }
  } finally {
    await setup.close()
  }
}

runIfMain(import.meta.url, "translate overlay", measureTranslateOverlay)
