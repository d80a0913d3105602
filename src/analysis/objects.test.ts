import { describe, expect, it } from "vitest"

import { DEFAULT_MIN_SCORES, humanConfig, toDetectedObjects } from "~core/analysis/detections"

const limits = { minScores: { person: 0.2, other: 0.3 }, maxObjects: 20 }

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
      limits
    )
    expect(objects).toEqual([
      { label: "person", score: 0.661, box: { x: 1209, y: 171, width: 711, height: 1109 } },
      { label: "tie", score: 0.33, box: { x: 415, y: 601, width: 211, height: 429 } }
    ])
  })

  it("maps boxes from the shrunk copy the detector saw back to the image", () => {
    expect(toDetectedObjects([{ label: "person", score: 0.5, box: [100, 50, 200, 300] }], 1920, 1280, limits, 1.875)).toEqual([
      { label: "person", score: 0.5, box: { x: 188, y: 94, width: 375, height: 562 } }
    ])
  })

  it("drops boxes that lie wholly outside the image", () => {
    expect(toDetectedObjects([{ label: "dog", score: 0.9, box: [2000, 10, 50, 50] }], 1920, 1280, limits)).toEqual([])
  })

  it("lists people from a lower score than other objects, which are mostly wrong that low", () => {
    const objects = toDetectedObjects(
      [
        { label: "person", score: 0.21, box: [0, 0, 100, 300] },
        { label: "person", score: 0.19, box: [100, 0, 100, 300] },
        { label: "bottle", score: 0.25, box: [300, 0, 20, 60] },
        { label: "cup", score: 0.3, box: [400, 0, 20, 20] }
      ],
      1920,
      1280,
      limits
    )
    expect(objects.map((object) => `${object.label} ${object.score}`)).toEqual(["cup 0.3", "person 0.21"])
    expect(DEFAULT_MIN_SCORES.person).toBeLessThan(DEFAULT_MIN_SCORES.other)
  })

  it("keeps the best ones when there are more than the limit", () => {
    const raw = [0.9, 0.5, 0.7, 0.6].map((score) => ({ label: "person", score, box: [0, 0, 10, 10] as const }))
    expect(toDetectedObjects(raw, 100, 100, { ...limits, maxObjects: 2 }).map((object) => object.score)).toEqual([0.9, 0.7])
  })
})

describe("humanConfig", () => {
  it("runs only the COCO object model from the given folder on the wasm backend, without caches or warm-up", () => {
    const config = humanConfig({ modelBasePath: "chrome-extension://id/engines/objects/", wasmPath: "chrome-extension://id/engines/tfjs/", minScores: { person: 0.2, other: 0.3 } })
    expect(config).toMatchObject({
      backend: "wasm",
      wasmPath: "chrome-extension://id/engines/tfjs/",
      modelBasePath: "chrome-extension://id/engines/objects/",
      cacheModels: false,
      cacheSensitivity: 0,
      warmup: "none",
      object: { enabled: true, modelPath: "centernet.json", minConfidence: 0.2, maxDetected: 100 }
    })
    // People shoulder to shoulder overlap by more than Human's default 0.4: only near-duplicates are dropped.
    expect(config.object.iouThreshold).toBe(0.7)
    for (const part of ["face", "body", "hand", "gesture", "segmentation"] as const) expect(config[part].enabled).toBe(false)
  })
})
