// The server's reading against bare tesseract.js given the same uploaded bytes (issue 47): for small print made for
// measuring (bench/photos/group-photos.json) in each format the API accepts, every word bare tesseract.js reads from
// the upload is in our answer. The reposted caption board is the case that sharp's PNG of the upload lost whole.
import path from "node:path"

import sharp from "sharp"
import { createWorker, OEM, type Worker } from "tesseract.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import type { V1OcrAnswer } from "../public-api/local-vision-schemas"

import { inFormat, smallPrintImages, wordsRead, type ImageFormat, type SmallPrintImage } from "../../bench/photos/group-photos"
import { runVisionTask } from "./vision-task"

const LANG_PATH = path.join(path.dirname(require.resolve("@tesseract.js-data/eng/package.json")), "4.0.0_best_int")


/** Which image in which formats: every format on the small receipt; the slower photos in the format they come in. */
const CASES: { name: string; formats: ImageFormat[] }[] = [
  { name: "caption-board-reposted", formats: ["jpeg"] },
  { name: "settings-screenshot", formats: ["png"] },
  { name: "receipt", formats: ["jpeg", "png", "webp", "gif"] }
]

let images: Map<string, SmallPrintImage>
let bare: Worker

beforeAll(async () => {
  images = new Map((await smallPrintImages(CASES.map((testCase) => testCase.name))).map((image) => [image.name, image]))
  bare = await createWorker("eng", OEM.LSTM_ONLY, { langPath: LANG_PATH, gzip: true, cacheMethod: "none" })
}, 60_000)

afterAll(async () => {
  await bare?.terminate()
})

async function ours(bytes: Buffer): Promise<V1OcrAnswer> {
  const result = await runVisionTask({ kind: "ocr", image: new Uint8Array(bytes), languages: ["eng"], langPath: LANG_PATH })
  if (!("answer" in result)) throw new Error(`The upload was refused as ${result.unreadable}.`)
  return result.answer as V1OcrAnswer
}

describe("OCR reads what bare tesseract.js reads from the same upload", () => {
  for (const { name, formats } of CASES) {
    for (const format of formats) {
      it(`${name} as ${format}`, { timeout: 60_000 }, async () => {
        const image = images.get(name)!
        const bytes = await inFormat(image, format)
        const bareWords = wordsRead((await bare.recognize(bytes)).data.text, image.text)
        const answer = await ours(bytes)
        const ourWords = wordsRead(answer.text, image.text)
        expect(ourWords, `bare tesseract.js read ${bareWords} of ${image.text.length} words, we read ${ourWords}`).toBeGreaterThanOrEqual(bareWords)
        // The small print is there to be read: a set where both read nothing would prove nothing.
        expect(ourWords).toBeGreaterThanOrEqual(Math.ceil(image.text.length * 0.8))
        const { width, height } = await sharp(bytes).metadata()
        expect({ width: answer.imageWidth, height: answer.imageHeight }).toEqual({ width, height })
      })
    }
  }

  it("still turns an image by its EXIF orientation and lays a transparent one on white", { timeout: 60_000 }, async () => {
    const receipt = images.get("receipt")!
    // Stored sideways with orientation 6 (a viewer turns it a quarter clockwise), and as a PNG with alpha.
    const sideways = await sharp(receipt.bytes).rotate(270).withMetadata({ orientation: 6 }).jpeg({ quality: 90 }).toBuffer()
    const transparent = await sharp(receipt.bytes).ensureAlpha(1).png().toBuffer()
    for (const bytes of [sideways, transparent]) {
      const answer = await ours(bytes)
      expect(wordsRead(answer.text, receipt.text)).toBeGreaterThanOrEqual(12)
      expect({ width: answer.imageWidth, height: answer.imageHeight }).toEqual({ width: 380, height: 520 })
    }
  })

  it("refuses a damaged upload as before", { timeout: 30_000 }, async () => {
    const receipt = images.get("receipt")!
    const truncated = receipt.bytes.subarray(0, Math.floor(receipt.bytes.length / 2))
    await expect(runVisionTask({ kind: "ocr", image: new Uint8Array(truncated), languages: ["eng"], langPath: LANG_PATH })).resolves.toEqual({ unreadable: "damaged" })
  })
})
