/**
 * How the lines of a page's images go to the server: several images in one POST /api/analyze/translate-images while
 * their lines fit (at most MAX_TRANSLATE_BATCH_LINES lines and MAX_TRANSLATE_TEXT_LENGTH characters in all, the
 * server's limits), fewer requests for the same quota (the quota counts images, not requests). An image whose lines
 * fit no batch goes alone through POST /api/analyze/translate, cut into the parts that one takes.
 */
import { MAX_TRANSLATE_BATCH_LINES, MAX_TRANSLATE_LINES, MAX_TRANSLATE_TEXT_LENGTH } from "~core/analysis/translate"

import type { TranslateClients } from "../ai/ai-engines"
import { VqaRequestError } from "../chat/vqa-client"

const characters = (lines: readonly string[]) => lines.reduce((sum, line) => sum + line.length, 0)

/** Whether an image's lines go in a batch: alone they are within the batch's limits. */
export const fitsBatch = (lines: readonly string[]): boolean => lines.length <= MAX_TRANSLATE_BATCH_LINES && characters(lines) <= MAX_TRANSLATE_TEXT_LENGTH

/** One request's images: a batch, or one image alone (too many lines for a batch). */
export type Taken<Image> = { kind: "batch" | "alone"; images: Image[] }

/**
 * The next request's images from the queue (nearest the view first): the first image, then each later one whose
 * lines still fit beside those taken. The first image alone when it fits no batch.
 */
export function takeBatch<Image extends { lines: readonly string[] }>(queue: readonly Image[]): Taken<Image> {
  const [first] = queue
  if (first && !fitsBatch(first.lines)) return { kind: "alone", images: [first] }
  const images: Image[] = []
  let lines = 0
  let chars = 0
  for (const image of queue) {
    if (!fitsBatch(image.lines)) continue
    const withIt = { lines: lines + image.lines.length, chars: chars + characters(image.lines) }
    if (withIt.lines > MAX_TRANSLATE_BATCH_LINES || withIt.chars > MAX_TRANSLATE_TEXT_LENGTH) continue
    images.push(image)
    ;({ lines, chars } = withIt)
  }
  return { kind: "batch", images }
}

/** An image's lines in order, in parts of at most MAX_TRANSLATE_LINES lines and MAX_TRANSLATE_TEXT_LENGTH characters. */
export function linesInParts(lines: readonly string[]): string[][] {
  const parts: string[][] = []
  let part: string[] = []
  let chars = 0
  for (const line of lines) {
    if (part.length && (part.length >= MAX_TRANSLATE_LINES || chars + line.length > MAX_TRANSLATE_TEXT_LENGTH)) {
      parts.push(part)
      part = []
      chars = 0
    }
    part.push(line)
    chars += line.length
  }
  if (part.length) parts.push(part)
  return parts
}

/** What one request gave: each image's translated lines at its index, null where the quota had no room (and why). */
export interface SentOutcome {
  targetLanguage: string
  lines: (string[] | null)[]
  quotaMessage?: string
}

const unreadable = () => new VqaRequestError("The service sent translations that could not be read. Try again in a moment.")

/**
 * Sends the images `takeBatch` took into `targetLanguage` through `clients` (ai-engines.ts: the device or our service,
 * each request to our service written in Sent from this device): a batch in one request, an image alone in as many parts as
 * it needs (one after another). Rejects with the client's VqaRequestError (quotaExceeded, signedOut) when refused.
 */
export async function sendTaken(taken: Taken<{ lines: readonly string[] }>, targetLanguage: string, clients: TranslateClients): Promise<SentOutcome> {
  if (taken.kind === "alone") {
    const translated: string[] = []
    let language = targetLanguage
    for (const part of linesInParts(taken.images[0]!.lines)) {
      const answer = await clients.translateText({ lines: part, targetLanguage })
      if (answer.lines?.length !== part.length) throw unreadable()
      translated.push(...answer.lines)
      language = answer.targetLanguage
    }
    return { targetLanguage: language, lines: [translated] }
  }
  const answer = await clients.translateImages({ images: taken.images.map(({ lines }) => ({ lines: [...lines] })), targetLanguage })
  const lines = taken.images.map((image, index) => {
    const translated = answer.images[index]
    if (translated && translated.lines.length !== image.lines.length) throw unreadable()
    return translated ? translated.lines : null
  })
  return { targetLanguage: answer.targetLanguage, lines, ...(answer.quotaExceeded ? { quotaMessage: answer.quotaExceeded.message } : {}) }
}
