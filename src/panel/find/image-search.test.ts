import { describe, expect, it } from "vitest"

import { foldForSearch, matchReading, queryWords, searchableReading, type ImageReading, type MatchReason, type Segment } from "./image-search"

const reading = (overrides: Partial<ImageReading> = {}): ImageReading => ({ text: "", labels: [], faces: 0, ...overrides })
const match = (image: Partial<ImageReading>, query: string) => matchReading(searchableReading(reading(image)), queryWords(query))

/** A line of segments written with the marked parts in [brackets], to read the expectations at a glance. */
const bracketed = (segments: Segment[]) => segments.map((segment) => (segment.marked ? `[${segment.text}]` : segment.text)).join("")
function shown(reasons: MatchReason[] | null): Record<string, string | string[]> | null {
  if (!reasons) return null
  return Object.fromEntries(reasons.map((reason) => [reason.kind, reason.kind === "text" ? reason.lines.map(bracketed) : bracketed(reason.segments)]))
}

describe("folding for search", () => {
  it("drops case and accents, in precomposed and decomposed text alike", () => {
    expect(foldForSearch("Crème BRÛLÉE")).toBe("creme brulee")
    expect(foldForSearch("Cre\u0300me")).toBe("creme")
    expect(foldForSearch("İstanbul Ñandú Ångström")).toBe("istanbul nandu angstrom")
  })

  it("splits a query into its distinct words, punctuation and spaces aside", () => {
    expect(queryWords("  Café, noir!  CAFE ")).toEqual(["cafe", "noir"])
    expect(queryWords(" , ")).toEqual([])
  })
})

describe("matching a reading", () => {
  it("finds a word at the start of a word of the text, whatever the case and accents, and marks it in the original", () => {
    expect(shown(match({ text: "Welcome to the HARBOUR\nOpen daily" }, "harbour"))).toEqual({ text: ["Welcome to the [HARBOUR]"] })
    expect(shown(match({ text: "Crème brûlée" }, "creme BRULEE"))).toEqual({ text: ["[Crème] [brûlée]"] })
    expect(shown(match({ text: "Cafe" }, "café"))).toEqual({ text: ["[Cafe]"] })
    // Typing: the beginning of a word already finds it, and only that beginning is marked.
    expect(shown(match({ text: "The harbour" }, "harb"))).toEqual({ text: ["The [harb]our"] })
  })

  it("keeps combining marks with the letter they belong to", () => {
    expect(shown(match({ text: "Cre\u0300me" }, "cre"))).toEqual({ text: ["[Cre\u0300]me"] })
    expect(shown(match({ text: "Cre\u0300me" }, "crem"))).toEqual({ text: ["[Cre\u0300m]e"] })
  })

  it("does not find a word inside another one", () => {
    expect(match({ text: "Education" }, "cat")).toBeNull()
    expect(match({ text: "Catalogue" }, "cat")).not.toBeNull()
  })

  it("finds words anywhere in text written without spaces", () => {
    expect(shown(match({ text: "東京駅の出口" }, "出口"))).toEqual({ text: ["東京駅の[出口]"] })
  })

  it("needs every word of the query, each found in the text or the labels", () => {
    const image = { text: "Harbour tours", labels: ["boat", "person"], faces: 0 }
    expect(shown(match(image, "harbour boat"))).toEqual({ text: ["[Harbour] tours"], objects: "[boat], person" })
    expect(match(image, "harbour train")).toBeNull()
  })

  it("marks every match of a line and only the lines that match, at most three", () => {
    const text = ["Sale today", "No match here", "SALE sale", "sale again", "last sale"].join("\n")
    expect(shown(match({ text }, "sale"))).toEqual({ text: ["[Sale] today", "[SALE] [sale]", "[sale] again"] })
  })

  it("cuts a long line down to the part around its matches", () => {
    const text = `${"a".repeat(100)} needle ${"b".repeat(100)}`
    const [line] = (match({ text }, "needle")![0] as Extract<MatchReason, { kind: "text" }>).lines
    expect(bracketed(line!)).toBe(`…${"a".repeat(39)} [needle] ${"b".repeat(39)}…`)
  })

  it("finds images with faces or a person for face, faces, person and people", () => {
    for (const word of ["face", "faces", "Person", "people", "pers"]) {
      expect(shown(match({ faces: 3 }, word))).toEqual({ faces: "[3 faces]" })
      expect(shown(match({ labels: ["dog", "person"] }, word))).toEqual({ objects: "dog, [person]" })
      expect(match({ labels: ["dog"], text: "no one here" }, word)).toBeNull()
    }
    expect(shown(match({ faces: 1, labels: ["person"] }, "person"))).toEqual({ objects: "[person]", faces: "[1 face]" })
  })

  it("matches every image with no reasons when the query has no words", () => {
    expect(match({}, "")).toEqual([])
    expect(match({ text: "anything" }, " - ")).toEqual([])
  })
})
