/**
 * The toasts' text passes AA (4.5:1) on sonner's own tinted backgrounds, read from the sonner package's stylesheet
 * (its light theme, the site's): sonner's default text colours do not, which is why the toaster sets darker ones.
 */
import fs from "node:fs"
import { createRequire } from "node:module"
import path from "node:path"

import { describe, expect, it } from "vitest"

import { contrastRatio } from "./contrast"
import { TOAST_TEXT_COLOURS } from "./toast"

const sonnerCss = fs.readFileSync(path.join(path.dirname(createRequire(import.meta.url).resolve("sonner")), "styles.css"), "utf8")
const lightTheme = /\[data-sonner-theme=light\]\s*\{([^}]*)\}/.exec(sonnerCss.replace(/'/g, ""))![1]!

function themeColour(name: string): string {
  return new RegExp(`--${name}:\\s*([^;]+);`).exec(lightTheme)![1]!.trim()
}

/** "hsl(140, 100%, 22%)" as #rrggbb. */
function hexOf(hsl: string): string {
  const [h, s, l] = /hsl\(([\d.]+),\s*([\d.]+)%,\s*([\d.]+)%\)/.exec(hsl)!.slice(1).map(Number) as [number, number, number]
  const a = (s / 100) * Math.min(l / 100, 1 - l / 100)
  const channel = (n: number) => {
    const k = (n + h / 30) % 12
    const value = l / 100 - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))
    return Math.round(value * 255).toString(16).padStart(2, "0")
  }
  return `#${channel(0)}${channel(8)}${channel(4)}`
}

const colours = TOAST_TEXT_COLOURS as Record<string, string>

describe("toast colours", () => {
  for (const kind of ["success", "error", "info", "warning"]) {
    it(`puts ${kind} text at AA contrast on sonner's ${kind} background`, () => {
      const background = hexOf(themeColour(`${kind}-bg`))
      expect(contrastRatio(hexOf(themeColour(`${kind}-text`)), background)).toBeLessThan(4.5)
      expect(contrastRatio(hexOf(colours[`--${kind}-text`]!), background)).toBeGreaterThanOrEqual(4.5)
    })
  }
})
