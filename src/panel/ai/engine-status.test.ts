import { afterEach, describe, expect, it } from "vitest"

import { builtInAiRecord, installBuiltInAiStandIn, removeBuiltInAi } from "./built-in-ai.test-support"
import { downloadOf, startDownload, subscribeDownloads } from "./downloads"
import { statusText } from "./engine-status"

afterEach(() => removeBuiltInAi())

describe("the engine's state in words", () => {
  it("says ready, downloading with the amounts, the download it needs, or why it is not there", () => {
    expect(statusText("questions", { availability: "available" })).toBe("Ready")
    expect(statusText("questions", { availability: "downloadable" })).toBe("Needs a one-time download of about 4 GB")
    expect(statusText("translation", { availability: "downloadable" })).toBe("Needs a one-time download of about 0.1 GB")
    expect(statusText("questions", { availability: "downloadable", download: { status: "downloading", fraction: 0.3 } })).toBe("Downloading: 1.2 of 4 GB")
    // Bytes when the browser gives them.
    expect(statusText("questions", { availability: "downloading", download: { status: "downloading", fraction: 0.5, loadedBytes: 1.2e9, totalBytes: 2.4e9 } })).toBe("Downloading: 1.2 of 2.4 GB")
    expect(statusText("questions", { availability: "downloading" })).toBe("Downloading…")
    expect(statusText("questions", { availability: "absent", reason: "Firefox does not offer a built-in AI model to extensions" })).toBe(
      "Not available in this browser: Firefox does not offer a built-in AI model to extensions"
    )
    expect(statusText("translation", { availability: "unavailable" })).toBe("Not available in this browser")
  })
})

describe("a download the person starts", () => {
  it("reports the browser's progress events live, and ends with the model ready", async () => {
    installBuiltInAiStandIn({ questions: "downloadable", translation: "available", downloadSteps: 4, downloadStepMs: 10 })
    const seen: number[] = []
    const unsubscribe = subscribeDownloads(() => {
      const state = downloadOf("questions")
      if (state?.status === "downloading") seen.push(state.fraction)
    })
    await startDownload("questions")
    unsubscribe()
    expect(seen).toEqual([0, 0, 0.25, 0.5, 0.75, 1])
    expect(downloadOf("questions")).toBeUndefined()
    expect(builtInAiRecord().config.questions).toBe("available")
    // The session made for the download is not kept.
    expect(builtInAiRecord().destroyed).toBe(1)
  })

  it("says why it stopped", async () => {
    installBuiltInAiStandIn({ questions: "unavailable", translation: "available" })
    await startDownload("questions")
    expect(downloadOf("questions")).toEqual({ status: "failed", message: "The browser says its model cannot run on this device." })
  })
})
