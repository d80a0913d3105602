/**
 * The panel's AI interface with the browser's built-in AI replaced by a stand-in that follows its documented
 * interface, and our service's client replaced by a double that counts what would be sent.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"

import { askImage, translateWithEngine, translationClients } from "./ai-engines"
import { builtInAiRecord, installBuiltInAiStandIn, removeBuiltInAi, type BuiltInAiStandInConfig } from "./built-in-ai.test-support"
import { DeviceEngineError } from "./device-errors"
import { destroyAllSessions, retainSessionsFor } from "./device-questions"
import { ocrSourceHint } from "./device-translation"

const service = vi.hoisted(() => ({
  askAboutImage: vi.fn(async ({ question }: { question: string }) => ({ answer: `Service answer to: ${question}`, model: "gpt-4o-mini", usage: { used: 1, limit: 10, resetsAt: "" } })),
  translateText: vi.fn(async ({ lines, targetLanguage }: { lines?: string[]; targetLanguage: string }) => ({
    translation: (lines ?? []).join("\n"),
    lines: lines?.map((line) => `service:${line}`),
    targetLanguage,
    sourceLanguage: null,
    usage: { used: 1, limit: 10, resetsAt: "" }
  })),
  translateImages: vi.fn(async ({ images, targetLanguage }: { images: { lines: string[] }[]; targetLanguage: string }) => ({
    images: images.map(({ lines }) => ({ lines: lines.map((line) => `service:${line}`) })),
    targetLanguage,
    sourceLanguage: null,
    usage: { used: 1, limit: 10, resetsAt: "" }
  }))
}))
vi.mock("../chat/vqa-client", () => service)

const image = new Blob([new Uint8Array([137, 80, 78, 71])], { type: "image/png" })
const ask = (question: string, extra: Partial<Parameters<typeof askImage>[0]> = {}) =>
  askImage({ imageKey: "https://a.test/cat.png", image, question, model: "gpt-4o-mini", choice: "auto", ...extra })
const install = (config: Partial<BuiltInAiStandInConfig> = {}) => installBuiltInAiStandIn({ questions: "available", translation: "available", pieceDelayMs: 1, ...config })

beforeEach(() => vi.clearAllMocks())
afterEach(() => {
  destroyAllSessions()
  removeBuiltInAi()
})

describe("questions", () => {
  it("are answered on the device when its model is ready: streamed, with the image, in the person's language, nothing sent", async () => {
    install()
    const pieces: string[] = []
    const answer = await ask("What animal is this?", { onPartial: (soFar) => pieces.push(soFar) })
    expect(answer).toEqual({ answer: "On-device answer to: What animal is this?", model: "the browser's built-in model", source: "device" })
    expect(pieces.length).toBeGreaterThan(2)
    expect(pieces.at(-1)).toBe(answer.answer)
    expect(builtInAiRecord().prompts).toEqual([{ question: "What animal is this?", hasImage: true }])
    expect(builtInAiRecord().created).toEqual([{ initialPrompts: 1, outputLanguages: ["en"] }])
    expect(service.askAboutImage).not.toHaveBeenCalled()
  })

  it("reuse the image's session for the next question, and start a new one when the image leaves the view", async () => {
    install()
    await ask("What is it?")
    await ask("What colour?")
    expect(builtInAiRecord().created).toHaveLength(1)
    // The image is in the session's context after the first question.
    expect(builtInAiRecord().prompts.map((prompt) => prompt.hasImage)).toEqual([true, false])
    retainSessionsFor(["https://a.test/other.png"])
    await vi.waitFor(() => expect(builtInAiRecord().destroyed).toBe(1))
    await ask("And now?")
    expect(builtInAiRecord().created).toHaveLength(2)
  })

  it("start a chat's session with its earlier turns as history", async () => {
    install()
    await ask("Second question", { history: [{ question: "First question", answer: "First answer" }] })
    // The system prompt, then one user and one assistant turn.
    expect(builtInAiRecord().created[0]!.initialPrompts).toBe(3)
  })

  it("go to our service under Automatic when the browser says its model is not there, and are refused under On this device only", async () => {
    for (const questions of ["unavailable", "downloadable", "downloading"] as const) {
      install({ questions })
      await expect(ask("What is it?")).resolves.toMatchObject({ source: "service", answer: "Service answer to: What is it?" })
      await expect(ask("What is it?", { choice: "device" })).rejects.toThrow(/“On this device only”/)
    }
    expect(service.askAboutImage).toHaveBeenCalledTimes(3)
    expect(builtInAiRecord().prompts).toEqual([])
    removeBuiltInAi()
    await expect(ask("Firefox?", { choice: "device" })).rejects.toThrow("this browser has no built-in AI model")
  })

  it("go to our service when chosen, whatever the device can do", async () => {
    install()
    await expect(ask("What is it?", { choice: "service" })).resolves.toMatchObject({ source: "service" })
    expect(builtInAiRecord().prompts).toEqual([])
  })

  it("stop when asked: the answer so far is kept, marked stopped", async () => {
    install({ answer: "one two three four five six seven eight", pieceDelayMs: 5 })
    const stop = new AbortController()
    const answer = await ask("Count", { signal: stop.signal, onPartial: (soFar) => soFar.split(" ").length > 3 && stop.abort() })
    expect(answer.stopped).toBe(true)
    expect(answer.answer).toMatch(/^one two three/)
    expect(answer.answer.length).toBeLessThan("one two three four five six seven eight".length)
  })

  it("say why the device's model failed mid-answer, and offer our service under Automatic only", async () => {
    install({ failWith: "UnknownError" })
    const failure = await ask("What is it?").catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(DeviceEngineError)
    expect(failure).toMatchObject({ message: "The model on this device stopped with an error (The model stopped.).", offerService: true })
    const onlyDevice = await ask("What is it?", { choice: "device" }).catch((error: unknown) => error)
    expect(onlyDevice).toMatchObject({ offerService: false })
    builtInAiRecord().set({ failWith: "QuotaExceededError" })
    await expect(ask("What is it?")).rejects.toThrow("The model on this device cannot take this much at once: this question and image are more than it can read.")
    expect(service.askAboutImage).not.toHaveBeenCalled()
    // The offer taken: the same question to our service.
    await expect(ask("What is it?", { only: "service" })).resolves.toMatchObject({ source: "service" })
  })
})

describe("translation", () => {
  it("is made on the device line by line, in order, from the detected language, nothing sent", async () => {
    install({ detected: "de" })
    const answer = await translateWithEngine({ lines: ["Ausfahrt", "freihalten"], targetLanguage: "fr" }, { choice: "auto" })
    expect(answer).toEqual({ translation: "[fr] Ausfahrt\n[fr] freihalten", lines: ["[fr] Ausfahrt", "[fr] freihalten"], targetLanguage: "fr", source: "device" })
    expect(builtInAiRecord().translations.map(({ sourceLanguage, text }) => [sourceLanguage, text])).toEqual([
      ["de", "Ausfahrt"],
      ["de", "freihalten"]
    ])
    expect(service.translateText).not.toHaveBeenCalled()
  })

  it("uses the OCR's language when the browser has no detector, and refuses a text whose language nobody can tell on the device", async () => {
    install({ detector: "unavailable" })
    await expect(translateWithEngine({ text: "Hola", targetLanguage: "en" }, { choice: "device", sourceHint: "es" })).resolves.toMatchObject({ source: "device", translation: "[en] Hola" })
    await expect(translateWithEngine({ text: "Hola", targetLanguage: "en" }, { choice: "device" })).rejects.toThrow("the browser cannot tell which language the text is in")
    // A hint of the language asked for is not taken as "nothing to translate": the pair is asked of the browser.
    builtInAiRecord().set({ translation: "unavailable" })
    await expect(translateWithEngine({ text: "Bonjour", targetLanguage: "en" }, { choice: "auto", sourceHint: "en" })).resolves.toMatchObject({ source: "service" })
  })

  it("takes the OCR's language as the hint only when one language was read", () => {
    expect(ocrSourceHint(["deu"])).toBe("de")
    // The bundled English model reads every Latin-script text: no hint.
    expect(ocrSourceHint(["eng"])).toBeUndefined()
    expect(ocrSourceHint(["chi_sim"])).toBe("zh-Hans")
    expect(ocrSourceHint(["eng", "deu"])).toBeUndefined()
    expect(ocrSourceHint([])).toBeUndefined()
  })

  it("falls back to our service under Automatic for a pair the browser cannot translate, and refuses it under On this device only", async () => {
    install({ translation: "unavailable" })
    await expect(translateWithEngine({ lines: ["Hello"], targetLanguage: "ja" }, { choice: "auto" })).resolves.toMatchObject({ source: "service", lines: ["service:Hello"] })
    await expect(translateWithEngine({ lines: ["Hello"], targetLanguage: "ja" }, { choice: "device" })).rejects.toThrow(/cannot be made on this device/)
    expect(service.translateText).toHaveBeenCalledTimes(1)
  })

  it("translates the page's images on the device when it can, and sends only the others to our service", async () => {
    install({ detected: "en" })
    const clients = translationClients("auto")
    const onDevice = await clients.translateImages({ images: [{ lines: ["One"] }, { lines: ["Two", "Three"] }], targetLanguage: "es" })
    expect(onDevice.images).toEqual([{ lines: ["[es] One"] }, { lines: ["[es] Two", "[es] Three"] }])
    expect(service.translateImages).not.toHaveBeenCalled()

    builtInAiRecord().set({ translation: "downloadable" })
    const served = await clients.translateImages({ images: [{ lines: ["Four"] }], targetLanguage: "es" })
    expect(served.images).toEqual([{ lines: ["service:Four"] }])
    await expect(translationClients("device").translateImages({ images: [{ lines: ["Five"] }], targetLanguage: "es" })).rejects.toThrow(/not downloaded yet/)
    expect(service.translateImages).toHaveBeenCalledTimes(1)
  })
})
