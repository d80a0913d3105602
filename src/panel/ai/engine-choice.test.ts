import { describe, expect, it } from "vitest"

import { ENGINE_CHOICES, pickEngine, type AiCapability, type EngineChoice, type ModelAvailability } from "./engine-choice"

const AVAILABILITIES: ModelAvailability[] = ["available", "downloadable", "downloading", "unavailable", "absent"]

/** Every setting × availability pair: the engine, or a refusal (under *On this device only*, nothing is sent). */
const TABLE: Record<EngineChoice, Record<ModelAvailability, "device" | "service" | "refused">> = {
  auto: { available: "device", downloadable: "service", downloading: "service", unavailable: "service", absent: "service" },
  device: { available: "device", downloadable: "refused", downloading: "refused", unavailable: "refused", absent: "refused" },
  service: { available: "service", downloadable: "service", downloading: "service", unavailable: "service", absent: "service" }
}

describe("which engine answers", () => {
  for (const capability of ["questions", "translation"] as AiCapability[]) {
    for (const choice of ENGINE_CHOICES) {
      for (const availability of AVAILABILITIES) {
        const expected = TABLE[choice][availability]
        it(`${capability}: ${choice} with the model ${availability} → ${expected}`, () => {
          const pick = pickEngine(choice, capability, availability, "a reason")
          if (expected === "refused") {
            expect(pick).toEqual({ refused: expect.stringContaining("“On this device only”") })
          } else {
            expect(pick).toEqual({ engine: expected })
          }
        })
      }
    }
  }

  it("says why the device cannot answer, and what to do", () => {
    expect(pickEngine("device", "questions", "downloadable")).toEqual({
      refused: "Questions about images need the browser's model, which is not downloaded yet: start the download in Settings. You chose “On this device only” in Settings."
    })
    expect(pickEngine("device", "translation", "downloading")).toEqual({
      refused: "The browser is still downloading its model: try again when Settings say “Ready”. You chose “On this device only” in Settings."
    })
    expect(pickEngine("device", "translation", "absent", "Firefox does not offer a built-in AI model to extensions")).toEqual({
      refused:
        "This translation cannot be made on this device: Firefox does not offer a built-in AI model to extensions. You chose “On this device only” in Settings. Choose “Automatic” to use Image Query AI's service instead."
    })
  })
})
