import { describe, expect, it } from "vitest"

import { analysisSide, clampBox, modelsFor, resolveFacesOptions, sortFaces, toDetectedFace, type DetectedFace } from "~core/analysis/detections"

describe("face options", () => {
  it("defaults to the accurate SSD detector without attributes and keeps what was asked", () => {
    expect(resolveFacesOptions()).toEqual({ detector: "ssd", attributes: false })
    expect(resolveFacesOptions({ attributes: true })).toEqual({ detector: "ssd", attributes: true })
    expect(resolveFacesOptions({ detector: "ssd", attributes: true })).toEqual({ detector: "ssd", attributes: true })
  })

  it("reads the removed fast detector as the default, for old callers and stored settings", () => {
    expect(resolveFacesOptions({ detector: "tiny" })).toEqual({ detector: "ssd", attributes: false })
    expect(resolveFacesOptions({ detector: "tiny", attributes: true })).toEqual({ detector: "ssd", attributes: true })
  })

  it("refuses an unknown detector in words", () => {
    expect(() => resolveFacesOptions({ detector: "mtcnn" })).toThrow('Unknown face detector "mtcnn": use "ssd".')
  })

  it("needs the attribute models only when attributes are asked for", () => {
    expect(modelsFor({ detector: "ssd", attributes: false })).toEqual(["ssdMobilenetv1"])
    expect(modelsFor({ detector: "ssd", attributes: true })).toEqual(["ssdMobilenetv1", "ageGenderNet", "faceExpressionNet"])
  })
})

describe("analysisSide", () => {
  it("gives SSD its own input size and the attribute models more", () => {
    expect(analysisSide({ detector: "ssd", attributes: false })).toBe(512)
    expect(analysisSide({ detector: "ssd", attributes: true })).toBe(1280)
  })
})

describe("clampBox", () => {
  it("rounds to whole pixels and cuts the box to the image", () => {
    expect(clampBox({ x: 10.4, y: 20.6, width: 30.2, height: 40.1 }, 100, 100)).toEqual({ x: 10, y: 21, width: 31, height: 40 })
    expect(clampBox({ x: -5, y: 90, width: 20, height: 30 }, 100, 100)).toEqual({ x: 0, y: 90, width: 15, height: 10 })
    expect(clampBox({ x: 120, y: 10, width: 5, height: 5 }, 100, 100)).toEqual({ x: 100, y: 10, width: 0, height: 5 })
  })

  it("maps a box from a shrunk copy back to the image", () => {
    expect(clampBox({ x: 100, y: 50, width: 80, height: 90 }, 1920, 1280, 1.5)).toEqual({ x: 150, y: 75, width: 120, height: 135 })
  })
})

describe("toDetectedFace", () => {
  const detection = { box: { x: 100.2, y: 50.7, width: 80, height: 90.4 }, score: 0.87654 }

  it("maps a bare detection to a box and score only", () => {
    expect(toDetectedFace({ detection }, 1920, 1280)).toEqual({ box: { x: 100, y: 51, width: 80, height: 90 }, score: 0.877 })
  })

  it("adds age, gender and the most likely expression", () => {
    const face = toDetectedFace(
      {
        detection,
        age: 31.6,
        gender: "female",
        genderProbability: 0.91234,
        expressions: { neutral: 0.1, happy: 0.85, sad: 0.01, angry: 0, fearful: 0, disgusted: 0, surprised: 0.04 }
      },
      1920,
      1280
    )
    expect(face).toMatchObject({ age: 32, gender: "female", genderScore: 0.912, expression: "happy", expressionScore: 0.85 })
  })

  it("leaves out a gender it does not know", () => {
    const face = toDetectedFace({ detection, gender: "unknown", genderProbability: 0.5 }, 1920, 1280)
    expect(face.gender).toBeUndefined()
    expect(face.genderScore).toBeUndefined()
  })
})

describe("sortFaces", () => {
  it("numbers faces left to right by their centres", () => {
    const face = (x: number, y: number, width = 100): DetectedFace => ({ box: { x, y, width, height: 100 }, score: 0.9 })
    const sorted = sortFaces([face(1400, 100), face(300, 300), face(700, 500, 300)])
    expect(sorted.map((item) => item.box.x)).toEqual([300, 700, 1400])
  })
})
