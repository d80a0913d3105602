/**
 * The public API's analyses on the server's own models: checks the image (size, type by its bytes, then the pixels
 * its header declares, before it takes a place in the line), checks the languages against the packs this server
 * offers, and runs the work in the vision pool for the calling account. What the worker could not decode is the
 * caller's image's fault and answered so; anything else is ours.
 */
import sharp from "sharp"

import { imageTypeOf } from "~core/images/image-type"
import { resolveFacesOptions, type FacesOptions } from "~core/analysis/detections"
import { V1_MAX_IMAGE_BYTES, V1_MAX_IMAGE_PIXELS, V1_OCR_MAX_IMAGE_PIXELS, type V1FacesAnswer, type V1ObjectsAnswer, type V1OcrAnswer } from "../public-api/local-vision-schemas"

import { ApiError, validationFailed } from "../http/errors"
import { imageTooLarge } from "../image-input/image-checks"
import type { OcrLanguageCatalogue } from "../ocr-languages/catalogue"
import type { OcrPackLinks } from "./ocr-pack-links"
import type { VisionPool } from "./vision-pool"
import type { VisionTask } from "./vision-task"

/** English, as the extension reads when nothing else is chosen. */
export const DEFAULT_OCR_LANGUAGES = ["eng"]

export const notAnImage = () => new ApiError(415, "INVALID_IMAGE", "This file is not an image: send a PNG, JPEG, GIF or WebP picture.")

export interface VisionServiceParts {
  pool: VisionPool
  catalogue: OcrLanguageCatalogue
  packLinks: OcrPackLinks
}

const undecodable = () => new ApiError(415, "INVALID_IMAGE", "The image could not be decoded: it may be damaged or cut short.")
const tooManyPixels = (maxPixels: number) =>
  new ApiError(413, "IMAGE_TOO_LARGE", `The image has more than ${maxPixels / 1_000_000} million pixels. Send a smaller one.`)

/** The image's bytes as the pool may take them: within the size, and a picture by its first bytes. */
function checkedImage(image: Uint8Array): Uint8Array {
  if (image.length === 0) throw validationFailed(["image: the image is empty"])
  if (image.length > V1_MAX_IMAGE_BYTES) throw imageTooLarge(V1_MAX_IMAGE_BYTES)
  if (!imageTypeOf(image)) throw notAnImage()
  return image
}

/** The megapixels the image's header declares (read, not decoded), within `maxPixels`: what its place in the line costs. */
async function declaredMegapixels(image: Uint8Array, maxPixels: number): Promise<number> {
  // Only the header is read: sharp's own pixel limit, meant for decoding, would call a bomb damaged instead of too large.
  const { width, height } = await sharp(image, { limitInputPixels: false })
    .metadata()
    .catch(() => ({ width: 0, height: 0 }))
  if (!width || !height) throw undecodable()
  if (width * height > maxPixels) throw tooManyPixels(maxPixels)
  return (width * height) / 1_000_000
}

/** Who asks: the account the line is fair to, and the signal of a caller that left. */
export interface VisionCaller {
  accountId: string
  signal?: AbortSignal
}

export function visionService({ pool, catalogue, packLinks }: VisionServiceParts) {
  const analyse = async (task: VisionTask, caller: VisionCaller, maxPixels = V1_MAX_IMAGE_PIXELS) => {
    const megapixels = await declaredMegapixels(task.image, maxPixels)
    const result = await pool.run(task, { ...caller, megapixels })
    if ("answer" in result) return result.answer
    if (result.unreadable === "too-many-pixels") throw tooManyPixels(maxPixels)
    throw undecodable()
  }

  return {
    async ocr(caller: VisionCaller, image: Uint8Array, languages: readonly string[] = DEFAULT_OCR_LANGUAGES): Promise<V1OcrAnswer> {
      checkedImage(image)
      const { byCode, languages: offered } = await catalogue.load()
      const readable = new Set(offered.map((pack) => pack.code))
      const unknown = languages.filter((code) => !readable.has(code))
      if (unknown.length > 0) {
        throw validationFailed(unknown.map((code) => `languages: this server has no language "${code}" (GET /api/ocr/languages lists those it reads)`))
      }
      const unique = [...new Set(languages)]
      const langPath = packLinks.folderWith(unique.map((code) => byCode.get(code)!))
      return (await analyse({ kind: "ocr", image, languages: unique, langPath }, caller, V1_OCR_MAX_IMAGE_PIXELS)) as V1OcrAnswer
    },

    /** `detector` may be a retired name ("tiny"): it runs the default, which the answer's `detector` names. */
    async faces(caller: VisionCaller, image: Uint8Array, options: Partial<Omit<FacesOptions, "detector">> & { detector?: string } = {}): Promise<V1FacesAnswer> {
      checkedImage(image)
      return (await analyse({ kind: "faces", image, options: resolveFacesOptions(options) }, caller)) as V1FacesAnswer
    },

    async objects(caller: VisionCaller, image: Uint8Array): Promise<V1ObjectsAnswer> {
      checkedImage(image)
      return (await analyse({ kind: "objects", image }, caller)) as V1ObjectsAnswer
    }
  }
}
