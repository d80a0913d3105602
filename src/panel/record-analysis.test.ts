import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"

import { createFakeChrome } from "~extension/browser/fake-chrome.test-support"

import type * as analyses from "./analyses"
import { runAnalysis, type AnalysisOutcome } from "./analyses"
import { loadHistory } from "./chat/history"
import { analyseAndRecord } from "./record-analysis"
import { DEFAULT_PANEL_SETTINGS } from "./settings/settings"

// What the engines and the vision model answer is tested with them; here, what is done with an answer.
vi.mock("./analyses", async (importOriginal) => ({ ...(await importOriginal<typeof analyses>()), runAnalysis: vi.fn() }))
const run = vi.mocked(runAnalysis)

beforeEach(() => vi.stubGlobal("chrome", createFakeChrome()))
afterEach(() => {
  vi.unstubAllGlobals()
  run.mockReset()
})

const image = { url: "https://a.test/photo.png", tabId: 3, frameId: 0 }

describe("analyseAndRecord", () => {
  it("records a local result in the history with its page, without counting an AI request", async () => {
    const outcome: AnalysisOutcome = { kind: "objects", objects: { objects: [{ label: "dog", score: 0.81, box: { x: 0, y: 0, width: 1, height: 1 } }], imageWidth: 1, imageHeight: 1 } }
    run.mockResolvedValue(outcome)
    const onUsageChanged = vi.fn()
    await expect(analyseAndRecord({ kind: "objects", image, settings: DEFAULT_PANEL_SETTINGS }, { pageUrl: "https://a.test/", onUsageChanged })).resolves.toBe(outcome)
    await vi.waitFor(async () => expect(await loadHistory()).toHaveLength(1))
    expect((await loadHistory())[0]).toMatchObject({ kind: "objects", imageUrl: image.url, pageUrl: "https://a.test/", summary: "dog", detail: "dog 81%" })
    expect(onUsageChanged).not.toHaveBeenCalled()
  })

  it("records a question with its answer and reports the AI request it used", async () => {
    run.mockResolvedValue({ kind: "ask", answer: "A red bicycle.", model: "gpt-4o-mini", question: "What is it?", source: "service" })
    const onUsageChanged = vi.fn()
    await analyseAndRecord({ kind: "ask", image, settings: DEFAULT_PANEL_SETTINGS, question: "What is it?" }, { onUsageChanged })
    await vi.waitFor(async () => expect(await loadHistory()).toHaveLength(1))
    expect((await loadHistory())[0]).toMatchObject({ kind: "ask", question: "What is it?", summary: "A red bicycle.", detail: "A red bicycle." })
    expect(onUsageChanged).toHaveBeenCalledTimes(1)
  })

  it("records a question answered on this device, and reports no AI request: the device's answers are not counted", async () => {
    run.mockResolvedValue({ kind: "ask", answer: "A blue kettle.", model: "the browser's built-in model", question: "What is it?", source: "device" })
    const onUsageChanged = vi.fn()
    await analyseAndRecord({ kind: "ask", image, settings: DEFAULT_PANEL_SETTINGS, question: "What is it?" }, { onUsageChanged })
    await vi.waitFor(async () => expect(await loadHistory()).toHaveLength(1))
    expect((await loadHistory())[0]).toMatchObject({ kind: "ask", summary: "A blue kettle." })
    expect(onUsageChanged).not.toHaveBeenCalled()
  })

  it("records nothing when the analysis fails", async () => {
    run.mockRejectedValue(new Error("The image could not be downloaded."))
    const onUsageChanged = vi.fn()
    await expect(analyseAndRecord({ kind: "scene", image, settings: DEFAULT_PANEL_SETTINGS }, { onUsageChanged })).rejects.toThrow("The image could not be downloaded.")
    expect(await loadHistory()).toEqual([])
    expect(onUsageChanged).not.toHaveBeenCalled()
  })
})
