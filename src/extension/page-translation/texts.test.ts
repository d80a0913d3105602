import { describe, expect, it } from "vitest"

import { badgeButtons, badgeText, overlayLabel, upgradeHref, type BadgeState } from "./texts"

const state = (overrides: Partial<BadgeState>): BadgeState => ({ status: "translating", done: 3, total: 12, showing: true, ...overrides })

describe("what the badge says", () => {
  it("tells the progress, the end, a stop, and the reason the translation ended", () => {
    expect(badgeText(state({}))).toBe("Translating images: 3 of 12")
    expect(badgeText(state({ status: "done", done: 12 }))).toBe("Images translated: 12")
    expect(badgeText(state({ status: "stopped", done: 5 }))).toBe("Translation stopped: 5 of 12")
    expect(badgeText(state({ status: "quota", message: "You have used this month's 10 AI requests." }))).toBe("You have used this month's 10 AI requests.")
    expect(badgeText(state({ status: "error", message: "You are offline." }))).toBe("You are offline.")
    expect(badgeText(state({ status: "error" }))).toBe("The images could not be translated.")
  })

  it("offers Stop while translating, and the originals or the translations once one is translated", () => {
    expect(badgeButtons(state({ done: 0 }))).toEqual([{ action: "stop", label: "Stop" }])
    expect(badgeButtons(state({}))).toEqual([
      { action: "stop", label: "Stop" },
      { action: "show-originals", label: "Show originals" }
    ])
    expect(badgeButtons(state({ status: "done", showing: false }))).toEqual([{ action: "show-translations", label: "Show translations" }])
  })

  it("links Upgrade for the quota to a web address only", () => {
    expect(upgradeHref(state({ status: "quota", upgradeUrl: "https://imagequery.ai/pricing" }))).toBe("https://imagequery.ai/pricing")
    expect(upgradeHref(state({ status: "quota", upgradeUrl: "javascript:alert(1)" }))).toBeNull()
    expect(upgradeHref(state({ status: "quota", upgradeUrl: "not an address" }))).toBeNull()
    expect(upgradeHref(state({ status: "error", upgradeUrl: "https://imagequery.ai/pricing" }))).toBeNull()
  })
})

describe("the name of an image's translation", () => {
  it("says the language in words and the image's own text alternative", () => {
    const image = document.createElement("img")
    expect(overlayLabel(image, "fr")).toBe("Image translated into French")
    image.alt = "Harbour sign"
    expect(overlayLabel(image, "fr")).toBe("Image translated into French: Harbour sign")
    expect(overlayLabel(image, "not a tag!")).toBe("Image translated into not a tag!: Harbour sign")
  })
})
