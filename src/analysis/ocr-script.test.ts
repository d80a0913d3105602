import { describe, expect, it } from "vitest"

import { toScriptDetection } from "./ocr-script"

const raw = (script: string | null, scriptConfidence: number | null, degrees: number | null, orientationConfidence: number | null) => ({
  script,
  script_confidence: scriptConfidence,
  orientation_degrees: degrees,
  orientation_confidence: orientationConfidence
})

describe("tesseract's orientation and script detection, as the panel uses it", () => {
  it("takes a confident script and turn", () => {
    expect(toScriptDetection(raw("Devanagari", 2, 0, 4.1))).toEqual({ script: "Devanagari", rotation: 0 })
    expect(toScriptDetection(raw("Latin", 8.7, 90, 3.1))).toEqual({ script: "Latin", rotation: 90 })
    expect(toScriptDetection(raw("Latin", 8.9, 180, 1.7))).toEqual({ script: "Latin", rotation: 180 })
  })

  it("ignores guesses below chance, and answers no script when the page had too little text", () => {
    expect(toScriptDetection(raw("Latin", 0.44, 270, 0.5))).toEqual({ script: null, rotation: 0 })
    expect(toScriptDetection(raw(null, null, null, null))).toEqual({ script: null, rotation: 0 })
  })

  it("turns only by quarter turns", () => {
    expect(toScriptDetection(raw("Latin", 5, 45, 9))).toEqual({ script: "Latin", rotation: 0 })
  })
})
