import { beforeEach, describe, expect, it, vi } from "vitest"

import type { AnalysisProgress } from "./engine"
import { createOcrEngine } from "./ocr"
import { createScriptDetector } from "./ocr-script"

/** tesseract.js's createWorker, recorded: the real workers run in the end-to-end tests. */
const tesseract = vi.hoisted(() => ({
  createWorker: vi.fn(),
  worker: { setParameters: vi.fn(async () => ({})), terminate: vi.fn(async () => ({})) }
}))

vi.mock("tesseract.js", () => ({
  OEM: { TESSERACT_ONLY: 0, LSTM_ONLY: 1 },
  PSM: { AUTO: "3" },
  createWorker: tesseract.createWorker
}))

const BASE = "https://extension.test/engines/ocr"

describe("the tesseract.js workers of text recognition and language detection", () => {
  beforeEach(() => {
    vi.clearAllMocks()
    tesseract.createWorker.mockResolvedValue(tesseract.worker)
  })

  it("starts language detection on the legacy core with the osd pack, reporting its own stages", async () => {
    const stages: AnalysisProgress[] = []
    const detector = createScriptDetector({ basePath: BASE })
    await detector.load((progress) => stages.push(progress))
    expect(tesseract.createWorker).toHaveBeenCalledWith("osd", 0, {
      workerPath: `${BASE}/worker.min.js`,
      langPath: BASE,
      workerBlobURL: false,
      gzip: true,
      cacheMethod: "readOnly",
      cachePath: "ocr-packs",
      corePath: `${BASE}/tesseract-core-simd.wasm.js`,
      legacyCore: true,
      legacyLang: true,
      errorHandler: expect.any(Function)
    })
    expect(stages).toEqual([
      { stage: "Loading language detection", fraction: 0 },
      { stage: "Language detection ready", fraction: 1 }
    ])
    expect(tesseract.worker.setParameters).not.toHaveBeenCalled()
    await detector.dispose()
    expect(tesseract.worker.terminate).toHaveBeenCalledTimes(1)
  })

  it("starts text recognition on the LSTM core with the chosen languages, its logger and parameters", async () => {
    tesseract.createWorker.mockImplementation(async (_languages: string, _oem: number, options: { logger: (message: { status: string; progress: number }) => void }) => {
      options.logger({ status: "loading language traineddata", progress: 0.5 })
      return tesseract.worker
    })
    const stages: AnalysisProgress[] = []
    const engine = createOcrEngine({ basePath: BASE, languages: ["eng", "jpn_vert"] })
    await engine.load((progress) => stages.push(progress))
    const [languages, oem, options] = tesseract.createWorker.mock.calls[0] as [string, number, Record<string, unknown>]
    expect([languages, oem, options.corePath, options.cachePath, options.workerPath]).toEqual(["eng+jpn_vert", 1, BASE, "ocr-packs", `${BASE}/worker.min.js`])
    expect(tesseract.worker.setParameters).toHaveBeenCalledWith({ preserve_interword_spaces: "1", tessedit_pageseg_mode: "3" })
    expect(stages).toEqual([
      { stage: "Loading the text recognition engine", fraction: 0 },
      { stage: "Loading the language model", fraction: 0.5 },
      { stage: "Text recognition ready", fraction: 1 }
    ])
    await engine.dispose()
    expect(tesseract.worker.terminate).toHaveBeenCalledTimes(1)
  })
})
