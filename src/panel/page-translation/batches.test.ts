import { describe, expect, it } from "vitest"

import { MAX_TRANSLATE_BATCH_LINES, MAX_TRANSLATE_LINES, MAX_TRANSLATE_TEXT_LENGTH, translateImagesRequestSchema, translateLinesSchema } from "~core/analysis/translate"

import { fitsBatch, linesInParts, sendTaken, takeBatch } from "./batches"

const image = (name: string, count: number, length = 10) => ({ name, lines: Array.from({ length: count }, (_, index) => `${name}${index}`.padEnd(length, "x")) })
const names = (images: readonly { name: string }[]) => images.map((taken) => taken.name)

describe("which images go in one request", () => {
  it("takes the images in order while their lines fit 50 in all, and fills the rest with later ones that fit", () => {
    const queue = [image("a", 20), image("b", 25), image("c", 10), image("d", 5), image("e", 1)]
    const first = takeBatch(queue)
    // a + b = 45; c would make 55; d makes 50; e would make 51.
    expect(first).toEqual({ kind: "batch", images: [queue[0], queue[1], queue[3]] })
    const rest = queue.filter((queued) => !first.images.includes(queued))
    expect(names(takeBatch(rest).images)).toEqual(["c", "e"])
    // Every batch is one the server takes.
    for (const batch of [first, takeBatch(rest)]) {
      expect(translateImagesRequestSchema.safeParse({ images: batch.images.map(({ lines }) => ({ lines })), targetLanguage: "fr" }).success).toBe(true)
    }
  })

  it("counts characters too: the lines of a request are at most 5000 characters together", () => {
    const long = [image("a", 10, 300), image("b", 10, 300), image("c", 1)]
    // a alone is 3000 characters; b would make 6000.
    expect(names(takeBatch(long).images)).toEqual(["a", "c"])
  })

  it("sends an image with more than 50 lines alone, through the single translation", () => {
    const queue = [image("big", MAX_TRANSLATE_BATCH_LINES + 1), image("small", 3)]
    expect(fitsBatch(queue[0]!.lines)).toBe(false)
    expect(takeBatch(queue)).toEqual({ kind: "alone", images: [queue[0]] })
    // Behind a small one, the big one waits for its own turn.
    expect(takeBatch([queue[1]!, queue[0]!])).toEqual({ kind: "batch", images: [queue[1]] })
    expect(takeBatch([])).toEqual({ kind: "batch", images: [] })
  })
})

describe("an image too long for one request", () => {
  it("is cut into parts the single translation takes, in order", () => {
    const lines = image("a", 450).lines
    const parts = linesInParts(lines)
    expect(parts.map((part) => part.length)).toEqual([MAX_TRANSLATE_LINES, MAX_TRANSLATE_LINES, 50])
    expect(parts.flat()).toEqual(lines)
    const wordy = image("w", 30, 400).lines
    const wordyParts = linesInParts(wordy)
    expect(wordyParts.flat()).toEqual(wordy)
    for (const part of [...parts, ...wordyParts]) expect(translateLinesSchema.safeParse(part).success).toBe(true)
    expect(wordyParts.every((part) => part.join("").length <= MAX_TRANSLATE_TEXT_LENGTH)).toBe(true)
    expect(linesInParts(["one"])).toEqual([["one"]])
  })
})

describe("sending the images taken", () => {
  const usage = { used: 1, limit: 10, resetsAt: "2026-12-01T00:00:00.000Z" }
  const fakeClients = () => {
    const batches: { images: { lines: string[] }[]; targetLanguage: string }[] = []
    const singles: { lines?: string[]; targetLanguage: string }[] = []
    return {
      batches,
      singles,
      clients: {
        translateImages: async (request: { images: { lines: string[] }[]; targetLanguage: string }) => {
          batches.push(request)
          return { images: request.images.map(({ lines }) => ({ lines: lines.map((line) => `fr:${line}`) })), targetLanguage: "fr", sourceLanguage: null, usage }
        },
        translateText: async (request: { lines?: string[]; targetLanguage: string }) => {
          singles.push(request)
          const lines = (request.lines ?? []).map((line) => `fr:${line}`)
          return { translation: lines.join("\n"), lines, targetLanguage: "fr", sourceLanguage: null, usage }
        }
      }
    }
  }

  it("sends a batch as one request and answers each image's lines at its index", async () => {
    const { batches, singles, clients } = fakeClients()
    const answer = await sendTaken({ kind: "batch", images: [image("a", 2), image("b", 1)] }, "fr", clients)
    expect(batches).toHaveLength(1)
    expect(singles).toHaveLength(0)
    expect(batches[0]).toEqual({ images: [{ lines: ["a0xxxxxxxx", "a1xxxxxxxx"] }, { lines: ["b0xxxxxxxx"] }], targetLanguage: "fr" })
    expect(answer).toEqual({ targetLanguage: "fr", lines: [["fr:a0xxxxxxxx", "fr:a1xxxxxxxx"], ["fr:b0xxxxxxxx"]] })
  })

  it("sends an image alone in the parts the single translation takes, and puts its lines back together", async () => {
    const { batches, singles, clients } = fakeClients()
    const big = image("big", 250)
    const answer = await sendTaken({ kind: "alone", images: [big] }, "fr", clients)
    expect(batches).toHaveLength(0)
    expect(singles.map((request) => request.lines?.length)).toEqual([200, 50])
    expect(answer.lines[0]).toEqual(big.lines.map((line) => `fr:${line}`))
  })

  it("says which images the quota had no room for", async () => {
    const { clients } = fakeClients()
    const answer = await sendTaken({ kind: "batch", images: [image("a", 1), image("b", 1)] }, "fr", {
      ...clients,
      translateImages: async () => ({ images: [{ lines: ["fr:a"] }, null], targetLanguage: "fr", sourceLanguage: null, usage, quotaExceeded: { message: "All 10 used.", retryAfter: 60 } })
    })
    expect(answer).toEqual({ targetLanguage: "fr", lines: [["fr:a"], null], quotaMessage: "All 10 used." })
  })

  it("refuses an answer whose lines do not match the lines sent", async () => {
    const { clients } = fakeClients()
    const short = { ...clients, translateImages: async () => ({ images: [{ lines: [] }], targetLanguage: "fr", sourceLanguage: null, usage }) }
    await expect(sendTaken({ kind: "batch", images: [image("a", 2)] }, "fr", short)).rejects.toThrow(/could not be read/)
  })
})
