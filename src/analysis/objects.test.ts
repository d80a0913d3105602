import { describe, expect, it } from "vitest"

import { humanConfig, toDetectedObjects } from "./objects"

describe("toDetectedObjects", () => {
  it("drops weak detections, cuts boxes to the image and puts the best first", () => {
    const objects = toDetectedObjects(
      [
        { label: "tie", score: 0.33, box: [415.2, 601, 211, 429] },
        { label: "person", score: 0.6612, box: [1209, 171, 800, 1200] },
        { label: "cup", score: 0.2, box: [10, 10, 50, 50] }
      ],
      1920,
      1280,
      0.3
    )
    expect(objects).toEqual([
      { label: "person", score: 0.661, box: { x: 1209, y: 171, width: 711, height: 1109 } },
      { label: "tie", score: 0.33, box: { x: 415, y: 601, width: 211, height: 429 } }
    ])
  })

  it("maps boxes from the shrunk copy the detector saw back to the image", () => {
    expect(toDetectedObjects([{ label: "person", score: 0.5, box: [100, 50, 200, 300] }], 1920, 1280, 0.3, 1.875)).toEqual([
      { label: "person", score: 0.5, box: { x: 188, y: 94, width: 375, height: 562 } }
    ])
  })

  it("drops boxes that lie wholly outside the image", () => {
    expect(toDetectedObjects([{ label: "dog", score: 0.9, box: [2000, 10, 50, 50] }], 1920, 1280, 0.3)).toEqual([])
  })
})

describe("humanConfig", () => {
  it("runs only the COCO object model from the given folder on the wasm backend, without caches or warm-up", () => {
    const config = humanConfig({ modelBasePath: "chrome-extension://id/engines/objects/", wasmPath: "chrome-extension://id/engines/tfjs/", minScore: 0.3, maxObjects: 20 })
    expect(config).toMatchObject({
      backend: "wasm",
      wasmPath: "chrome-extension://id/engines/tfjs/",
      modelBasePath: "chrome-extension://id/engines/objects/",
      cacheModels: false,
      cacheSensitivity: 0,
      warmup: "none",
      object: { enabled: true, modelPath: "centernet.json", minConfidence: 0.3, maxDetected: 20 }
    })
    for (const part of ["face", "body", "hand", "gesture", "segmentation"] as const) expect(config[part].enabled).toBe(false)
  })
})
