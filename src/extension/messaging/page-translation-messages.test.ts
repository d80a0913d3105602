import { describe, expect, it } from "vitest"

import { pageTranslationAction, pageTranslationClear, pageTranslationShow, pageTranslationState } from "./page-translation-messages"

const line = { bbox: { x0: 10, y0: 20, x1: 300, y1: 60 }, text: "Bonjour", vertical: false, background: [250, 220, 40], ink: [10, 20, 90] }
const translation = { imageWidth: 640, imageHeight: 480, language: "fr", lines: [line] }
const show = (overrides: object) => ({ type: "PAGE_TRANSLATION_SHOW", url: "https://example.com/sign.png", translation, ...overrides })
const withLine = (overrides: object) => show({ translation: { ...translation, lines: [{ ...line, ...overrides }] } })

describe("the page translation's messages", () => {
  it("accept an image's translation, and refuse one the overlay could not draw", () => {
    expect(pageTranslationShow.parse(show({})).ok).toBe(true)
    expect(pageTranslationShow.parse(show({ url: "" })).ok).toBe(false)
    expect(pageTranslationShow.parse(show({ translation: { ...translation, imageWidth: 0 } })).ok).toBe(false)
    expect(pageTranslationShow.parse(show({ translation: { ...translation, lines: "Bonjour" } })).ok).toBe(false)
    expect(pageTranslationShow.parse(withLine({ background: [256, 0, 0] })).ok).toBe(false)
    expect(pageTranslationShow.parse(withLine({ ink: [0, 0] })).ok).toBe(false)
    expect(pageTranslationShow.parse(withLine({ bbox: { x0: 0, y0: 0, x1: Infinity, y1: 1 } })).ok).toBe(false)
    expect(pageTranslationShow.parse(withLine({ vertical: "yes" })).ok).toBe(false)
    expect(pageTranslationShow.parse(withLine({ text: 7 })).ok).toBe(false)
  })

  it("accept the mode's state with its counts, and refuse an unknown status or a count that is no count", () => {
    const state = { type: "PAGE_TRANSLATION_STATE", showing: true, status: "quota", done: 3, total: 12, message: "Used up.", upgradeUrl: "https://imagequery.ai/pricing" }
    expect(pageTranslationState.parse(state).ok).toBe(true)
    expect(pageTranslationState.parse({ ...state, message: undefined, upgradeUrl: undefined }).ok).toBe(true)
    expect(pageTranslationState.parse({ ...state, status: "paused" }).ok).toBe(false)
    expect(pageTranslationState.parse({ ...state, done: -1 }).ok).toBe(false)
    expect(pageTranslationState.parse({ ...state, total: 1.5 }).ok).toBe(false)
    expect(pageTranslationState.parse({ ...state, showing: "false" }).ok).toBe(false)
    expect(pageTranslationState.parse({ ...state, message: 3 }).ok).toBe(false)
  })

  it("accept the badge's three actions and no other, and a clear of nothing more", () => {
    for (const action of ["stop", "show-originals", "show-translations"]) expect(pageTranslationAction.parse({ type: "PAGE_TRANSLATION_ACTION", action }).ok).toBe(true)
    expect(pageTranslationAction.parse({ type: "PAGE_TRANSLATION_ACTION", action: "upgrade" }).ok).toBe(false)
    expect(pageTranslationClear.parse({ type: "PAGE_TRANSLATION_CLEAR" }).ok).toBe(true)
    expect(pageTranslationClear.parse({ type: "PAGE_TRANSLATION_STATE" }).ok).toBe(false)
  })
})
