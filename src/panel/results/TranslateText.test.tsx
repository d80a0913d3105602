import { fireEvent, render, screen, waitFor } from "@testing-library/react"
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"

import { MAX_TRANSLATE_TEXT_LENGTH } from "~core/analysis/translate"
import { saveExtensionSession } from "~extension/account/extension-session"
import { createFakeChrome } from "~extension/browser/fake-chrome.test-support"

import { installBuiltInAiStandIn, removeBuiltInAi } from "../ai/built-in-ai.test-support"
import { defaultTargetLanguage, TranslateText } from "./TranslateText"

const API = "https://api.test"
let answer: { status: number; body: unknown }
let posted: unknown[]

beforeEach(async () => {
  const fake = createFakeChrome()
  vi.stubGlobal("chrome", fake)
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const request = input instanceof Request ? input : new Request(input, init)
    posted.push(JSON.parse(await request.text()))
    return new Response(JSON.stringify(answer.body), { status: answer.status })
  })
  await fake.storage.local.set({ apiOrigin: API })
  await saveExtensionSession({ user: { name: "Ada", email: "ada@example.com", role: "user", provider: "email" }, token: "ext-a", refreshToken: "r", expiresAt: Date.now() + 3_600_000 })
  posted = []
  answer = { status: 200, body: { success: true, data: { translation: "Hello world", targetLanguage: "en", sourceLanguage: null, usage: { used: 4, limit: 10, resetsAt: "2026-12-01T00:00:00.000Z" } } } }
})
afterEach(() => {
  vi.unstubAllGlobals()
  removeBuiltInAi()
})

describe("Translate on a text result", () => {
  it("translates into the chosen language, shows the translation with Copy, and refreshes the usage", async () => {
    const onUsageChanged = vi.fn()
    render(<TranslateText text="नमस्ते दुनिया" onUsageChanged={onUsageChanged} />)
    fireEvent.change(screen.getByLabelText("Translate into"), { target: { value: "en" } })
    fireEvent.click(screen.getByRole("button", { name: "Translate" }))
    expect((await screen.findByTestId("translation")).textContent).toBe("Hello world")
    expect(screen.getByTestId("translation-source").textContent).toBe("Translated by Image Query AI's service into English")
    expect(screen.getByRole("button", { name: "Copy translation" })).toBeTruthy()
    expect(posted).toEqual([{ text: "नमस्ते दुनिया", targetLanguage: "en" }])
    expect(onUsageChanged).toHaveBeenCalledTimes(1)
  })

  it("translates on the device when the browser's translator takes the pair: nothing sent, nothing counted", async () => {
    installBuiltInAiStandIn({ questions: "available", translation: "available", detected: "de" })
    const onUsageChanged = vi.fn()
    const onShowOnImage = vi.fn()
    render(<TranslateText text={"Ausfahrt\nfreihalten"} lines={["Ausfahrt", "freihalten"]} onUsageChanged={onUsageChanged} onShowOnImage={onShowOnImage} />)
    fireEvent.change(screen.getByLabelText("Translate into"), { target: { value: "fr" } })
    expect((await screen.findByText("Translated on this device: the text stays on it.")).tagName).toBe("P")
    fireEvent.click(screen.getByRole("button", { name: "Translate" }))
    expect((await screen.findByTestId("translation")).textContent).toBe("[fr] Ausfahrt\n[fr] freihalten")
    expect(screen.getByTestId("translation-source").textContent).toBe("Translated on this device into French")
    // Show on image lays the same lines over the image as the page's translation does.
    fireEvent.click(screen.getByRole("button", { name: "Show on image" }))
    expect(onShowOnImage).toHaveBeenCalledWith({ lines: ["[fr] Ausfahrt", "[fr] freihalten"], language: "French" })
    expect(posted).toEqual([])
    expect(onUsageChanged).not.toHaveBeenCalled()
  })

  it("shows the server's refusal in words and counts nothing here", async () => {
    answer = { status: 429, body: { success: false, error: { code: "QUOTA_EXCEEDED", message: "You have used your 10 requests this month." } } }
    const onUsageChanged = vi.fn()
    render(<TranslateText text="Bonjour" onUsageChanged={onUsageChanged} />)
    fireEvent.click(screen.getByRole("button", { name: "Translate" }))
    expect((await screen.findByRole("alert")).textContent).toBe("You have used your 10 requests this month.")
    expect(onUsageChanged).not.toHaveBeenCalled()
    await waitFor(() => expect((screen.getByRole("button", { name: "Translate" }) as HTMLButtonElement).disabled).toBe(false))
  })

  it("does not offer a translation of a text over the limit", () => {
    render(<TranslateText text={"a".repeat(MAX_TRANSLATE_TEXT_LENGTH + 1)} onUsageChanged={() => {}} />)
    expect((screen.getByRole("button", { name: "Translate" }) as HTMLButtonElement).disabled).toBe(true)
    expect(screen.getByText(/longer than 5,000 characters/)).toBeTruthy()
  })

  it("defaults to the browser's language when it is offered, else English", () => {
    expect(defaultTargetLanguage(["pt-BR", "en"])).toBe("pt")
    expect(defaultTargetLanguage(["zh-TW"])).toBe("zh-Hant")
    expect(defaultTargetLanguage(["x-klingon", "de-CH"])).toBe("de")
    expect(defaultTargetLanguage(["x-klingon"])).toBe("en")
  })
})
