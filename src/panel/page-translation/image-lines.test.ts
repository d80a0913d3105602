import { describe, expect, it } from "vitest"

import type { OcrLine } from "~core/ocr/ocr-lines"

import { imageText, translationOf } from "./image-lines"

const line = (text: string, bbox = { x0: 10, y0: 10, x1: 200, y1: 40 }, confidence = 0.9): OcrLine => ({ text, confidence, bbox, words: [{ text, confidence, bbox }] })
const white = { background: [255, 255, 255] as const, ink: [0, 0, 0] as const }
const red = { background: [200, 0, 0] as const, ink: [255, 255, 255] as const }

describe("an image's text, as it is translated on the page", () => {
  it("keeps the lines with letters, each with its box, its colours and whether it is a column", () => {
    const column = { x0: 300, y0: 0, x1: 340, y1: 300 }
    const ocr = { imageWidth: 400, imageHeight: 300, lines: [line("EXIT"), line("12:45 — 3/4"), line("出口", column)] }
    expect(imageText("https://a.example/sign.png", ocr, [white, white, red])).toEqual({
      url: "https://a.example/sign.png",
      imageWidth: 400,
      imageHeight: 300,
      lines: [
        { text: "EXIT", bbox: { x0: 10, y0: 10, x1: 200, y1: 40 }, vertical: false, ...white },
        { text: "出口", bbox: column, vertical: true, ...red }
      ]
    })
  })

  it("has no text to translate when no line has a letter: the image is left alone", () => {
    expect(imageText("https://a.example/chart.png", { imageWidth: 400, imageHeight: 300, lines: [line("2024"), line("— 40 %")] }, [white, white])).toBeNull()
    // A photo read as text: letters, but read with little confidence (a stripe read "NN", a face "EL JB >").
    expect(imageText("https://a.example/photo.jpg", { imageWidth: 400, imageHeight: 300, lines: [line("NN", undefined, 0.42), line("EL JB >", undefined, 0.65)] }, [white, white])).toBeNull()
    expect(imageText("https://a.example/photo.png", { imageWidth: 400, imageHeight: 300, lines: [] }, [])).toBeNull()
  })

  it("lays each translated line over its own line, in the language it is in", () => {
    const read = imageText("https://a.example/sign.png", { imageWidth: 400, imageHeight: 300, lines: [line("EXIT"), line("出口", { x0: 300, y0: 0, x1: 340, y1: 300 })] }, [white, red])!
    expect(translationOf(read, ["SORTIE", "SORTIE"], "fr")).toEqual({
      imageWidth: 400,
      imageHeight: 300,
      language: "fr",
      lines: [
        { bbox: { x0: 10, y0: 10, x1: 200, y1: 40 }, text: "SORTIE", vertical: false, ...white },
        { bbox: { x0: 300, y0: 0, x1: 340, y1: 300 }, text: "SORTIE", vertical: true, ...red }
      ]
    })
  })
})
