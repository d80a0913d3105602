/**
 * The public API's analyses on the server's own models: checks the image (size, then type by its bytes), checks the
 * languages against the packs this server offers, and runs the work in the vision pool. What the worker could not
 * decode is the caller's image's fault and answered so; anything else is ours.
 */
import { imageTypeOf } from "~core/image-type"
import { resolveFacesOptions, type FacesOptions } from "~core/detections"
import { V1_MAX_IMAGE_BYTES, V1_MAX_IMAGE_PIXELS, type V1FacesAnswer, type V1ObjectsAnswer, type V1OcrAnswer } from "~core/public-api"

import { ApiError, validationFailed } from "../http/errors"
import { imageTooLarge } from "../analyze/image"
import type { OcrLanguageCatalogue } from "../ocr/catalogue"
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

/** The image's bytes as the pool may take them: within the size, and a picture by its first bytes. */
function checkedImage(image: Uint8Array): Uint8Array {
  if (image.length === 0) throw validationFailed(["image: the image is empty"])
  if (image.length > V1_MAX_IMAGE_BYTES) throw imageTooLarge(V1_MAX_IMAGE_BYTES)
  if (!imageTypeOf(image)) throw notAnImage()
  return image
}

export function visionService({ pool, catalogue, packLinks }: VisionServiceParts) {
  const analyse = async (task: VisionTask) => {
    const result = await pool.run(task)
    if ("answer" in result) return result.answer
    if (result.unreadable === "too-many-pixels") {
      throw new ApiError(413, "IMAGE_TOO_LARGE", `The image has more than ${V1_MAX_IMAGE_PIXELS / 1_000_000} million pixels. Send a smaller one.`)
    }
    throw new ApiError(415, "INVALID_IMAGE", "The image could not be decoded: it may be damaged or cut short.")
  }

  return {
    async ocr(image: Uint8Array, languages: readonly string[] = DEFAULT_OCR_LANGUAGES): Promise<V1OcrAnswer> {
      checkedImage(image)
      const { byCode, languages: offered } = await catalogue.load()
      const readable = new Set(offered.map((pack) => pack.code))
      const unknown = languages.filter((code) => !readable.has(code))
      if (unknown.length > 0) {
        throw validationFailed(unknown.map((code) => `languages: this server has no language "${code}" (GET /api/ocr/languages lists those it reads)`))
      }
      const unique = [...new Set(languages)]
      const langPath = packLinks.folderWith(unique.map((code) => byCode.get(code)!))
      return (await analyse({ kind: "ocr", image, languages: unique, langPath })) as V1OcrAnswer
    },

    async faces(image: Uint8Array, options: Partial<FacesOptions> = {}): Promise<V1FacesAnswer> {
      checkedImage(image)
      return (await analyse({ kind: "faces", image, options: resolveFacesOptions(options) })) as V1FacesAnswer
    },

    async objects(image: Uint8Array): Promise<V1ObjectsAnswer> {
      checkedImage(image)
      return (await analyse({ kind: "objects", image })) as V1ObjectsAnswer
    }
  }
}
