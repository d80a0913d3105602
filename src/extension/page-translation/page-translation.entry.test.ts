import { act, waitFor } from "@testing-library/react"
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"

import { fakeEvent } from "../browser/fake-chrome.test-support"
import { OWN_NODE_ATTRIBUTE } from "../in-page/own-nodes"
import { installPageIndex } from "../in-page/page-index-global"
import { TRANSLATION_HOST_TAG } from "./surface"

const PANEL = { id: "extension-id", url: "chrome-extension://extension-id/sidepanel.html" }
const CONTENT_SCRIPT = { id: "extension-id", url: "https://example.com/", tab: { id: 1 }, frameId: 0 }
const SIGN = "https://example.com/sign.png"
const translation = {
  imageWidth: 640,
  imageHeight: 480,
  language: "fr",
  lines: [{ bbox: { x0: 10, y0: 20, x1: 300, y1: 60 }, text: "Bonjour", vertical: false, background: [250, 220, 40], ink: [10, 20, 90] }]
}
const state = (overrides: object = {}) => ({ type: "PAGE_TRANSLATION_STATE", showing: true, status: "translating", done: 1, total: 4, ...overrides })

/** Before any spy: each test spies on it again. */
const attachShadow = Element.prototype.attachShadow

let onMessage: ReturnType<typeof fakeEvent>
let sendMessage: ReturnType<typeof vi.fn>
let shadows: ShadowRoot[]

beforeEach(() => {
  onMessage = fakeEvent()
  sendMessage = vi.fn(() => Promise.resolve())
  vi.stubGlobal("chrome", { runtime: { id: "extension-id", getURL: (file: string) => `chrome-extension://extension-id/${file}`, onMessage, sendMessage } })
  document.body.innerHTML = `<img src="${SIGN}" alt="Harbour sign">`
  // As the page index lists them: each image by the address it shows now.
  installPageIndex({ elements: () => new Map(Array.from(document.querySelectorAll("img"), (image) => [image.src, image])) })
  // The host's root is closed: the test keeps it as it is made.
  shadows = []
  vi.spyOn(Element.prototype, "attachShadow").mockImplementation(function (this: Element, init: ShadowRootInit) {
    const root = attachShadow.call(this, init)
    shadows.push(root)
    return root
  })
})

afterEach(async () => {
  for (const listener of onMessage.listeners) await ask({ type: "PAGE_TRANSLATION_CLEAR" }, PANEL, listener)
  vi.resetModules()
  delete (globalThis as Record<string, unknown>).__imageQueryAiPageIndex
  delete (globalThis as Record<string, unknown>).__imageQueryAiPageTranslation
})

function ask(message: object, sender: object, listener = [...onMessage.listeners][0]!): Promise<unknown> {
  return act(
    () =>
      new Promise((resolve) => {
        const answered = (listener as (m: unknown, s: object, r: (a: unknown) => void) => boolean)(message, sender, resolve)
        if (!answered) resolve("no answer")
      })
  )
}

const host = () => document.querySelector(TRANSLATION_HOST_TAG)

describe("the page translation script in a frame", () => {
  it("listens once however often the side panel injects it", async () => {
    await import("./page-translation.entry")
    vi.resetModules()
    await import("./page-translation.entry")
    expect(onMessage.listeners.size).toBe(1)
  })

  it("lays a translation over the image the page index lists at its address, in a closed host of its own at the end of the document", async () => {
    await import("./page-translation.entry")
    expect(await ask({ type: "PAGE_TRANSLATION_SHOW", url: "https://example.com/elsewhere.png", translation }, PANEL)).toEqual({ shown: false })
    expect(host()).toBeNull()
    expect(await ask({ type: "PAGE_TRANSLATION_SHOW", url: SIGN, translation }, PANEL)).toEqual({ shown: true })
    expect(document.documentElement.lastElementChild).toBe(host())
    expect(host()!.hasAttribute(OWN_NODE_ATTRIBUTE)).toBe(true)
    expect(host()!.getAttribute("style")).toContain("position: absolute !important")
    expect(host()!.shadowRoot).toBeNull()
    const group = shadows[0]!.querySelector("[role='group'][aria-label='Image translated into French: Harbour sign']")!
    expect(group.querySelector("[data-line]")?.textContent).toBe("Bonjour")
    expect(group.querySelector("[data-line]")?.getAttribute("lang")).toBe("fr")
    // The page's own image is as it was.
    expect(document.body.innerHTML).toBe(`<img src="${SIGN}" alt="Harbour sign">`)
  })

  it("answers nothing to another sender than the extension's own panel, or to a malformed message", async () => {
    await import("./page-translation.entry")
    expect(await ask({ type: "PAGE_TRANSLATION_SHOW", url: SIGN, translation }, CONTENT_SCRIPT)).toBe("no answer")
    expect(await ask({ type: "PAGE_TRANSLATION_SHOW", url: SIGN, translation: { ...translation, lines: null } }, PANEL)).toBe("no answer")
    expect(host()).toBeNull()
  })

  it("draws the badge in the top frame, whose buttons tell the panel, hides and shows the translations, and clears everything", async () => {
    await import("./page-translation.entry")
    await ask({ type: "PAGE_TRANSLATION_SHOW", url: SIGN, translation }, PANEL)
    await ask(state(), PANEL)
    const root = shadows[0]!
    const badge = root.querySelector("[data-testid='page-translation-badge']")!
    expect(badge.querySelector("[role='status']")?.textContent).toContain("Translating images: 1 of 4")
    const buttons = () => Array.from(badge.querySelectorAll("button"), (button) => button.textContent)
    expect(buttons()).toEqual(["Stop", "Show originals"])
    const overlays = () => root.querySelector<HTMLElement>("[data-url]")!.parentElement!
    await act(async () => badge.querySelectorAll("button")[1]!.click())
    expect(sendMessage).toHaveBeenLastCalledWith({ type: "PAGE_TRANSLATION_ACTION", action: "show-originals" })
    // At once, before the panel's state comes back.
    expect(overlays().style.display).toBe("none")
    expect(buttons()).toEqual(["Stop", "Show translations"])
    await ask(state({ showing: true, status: "done", done: 4 }), PANEL)
    expect(overlays().style.display).toBe("block")
    expect(badge.querySelector("[role='status']")?.textContent).toContain("Images translated: 4")
    await act(async () => badge.querySelector("button")!.click())
    expect(sendMessage).toHaveBeenLastCalledWith({ type: "PAGE_TRANSLATION_ACTION", action: "show-originals" })
    expect(await ask({ type: "PAGE_TRANSLATION_CLEAR" }, PANEL)).toEqual({ success: true })
    expect(host()).toBeNull()
  })

  it("follows its image's address: gone while the element shows another picture, back when it shows this one again", async () => {
    await import("./page-translation.entry")
    await ask({ type: "PAGE_TRANSLATION_SHOW", url: SIGN, translation }, PANEL)
    const translated = () => shadows[0]!.querySelectorAll("[role='group'][aria-label^='Image translated']").length
    expect(translated()).toBe(1)
    const image = document.querySelector("img")!
    image.src = "https://example.com/next-slide.png"
    await waitFor(() => expect(translated()).toBe(0))
    image.src = SIGN
    await waitFor(() => expect(translated()).toBe(1))
    image.remove()
    await waitFor(() => expect(translated()).toBe(0))
    document.body.append(image)
    await waitFor(() => expect(translated()).toBe(1))
  })

  it("links Upgrade when the quota runs out", async () => {
    await import("./page-translation.entry")
    await ask(state({ status: "quota", message: "This month's AI requests are used up.", upgradeUrl: "https://imagequery.ai/pricing" }), PANEL)
    const link = shadows[0]!.querySelector("a")!
    expect(link.textContent).toBe("Upgrade")
    expect(link.getAttribute("href")).toBe("https://imagequery.ai/pricing")
    expect(shadows[0]!.querySelector("[role='status']")?.textContent).toContain("This month's AI requests are used up.")
  })
})
