import { describe, expect, it } from "vitest"

import { ANALYSIS_KINDS } from "./settings"
import { IMAGE_TYPE_FILTERS } from "../images/tab-images"

describe("the panel's choices", () => {
  it("are listed in the order their labels are written", () => {
    expect(ANALYSIS_KINDS).toEqual(["text", "faces", "objects", "scene", "ask"])
    expect(IMAGE_TYPE_FILTERS).toEqual(["any", "jpeg", "png", "gif", "webp", "svg", "other"])
  })
})
