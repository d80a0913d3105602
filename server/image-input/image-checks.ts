/**
 * A caller's image, whichever endpoint takes it (questions to the vision model, /api/v1's local analyses): the size
 * rule (413 IMAGE_TOO_LARGE), the type by its bytes (400 INVALID_IMAGE) and base64 data URLs.
 */
import { imageTypeOf } from "~core/images/image-type"
import { MAX_IMAGE_BYTES } from "~core/analysis/vqa"

import { ApiError } from "../http/errors"

export function imageTooLarge(maxBytes = MAX_IMAGE_BYTES): ApiError {
  return new ApiError(413, "IMAGE_TOO_LARGE", `The image is larger than ${maxBytes / (1024 * 1024)} MB.`)
}

export function invalidImage(): ApiError {
  return new ApiError(400, "INVALID_IMAGE", "The image must be a PNG, JPEG, GIF or WebP picture.")
}

/** Checks image bytes and turns them into the data URL sent to the provider, with the detected type. */
export function toImageDataUrl(bytes: Uint8Array): string {
  if (bytes.length > MAX_IMAGE_BYTES) throw imageTooLarge()
  const type = imageTypeOf(bytes)
  if (!type) throw invalidImage()
  return `data:${type};base64,${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64")}`
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/

/** A base64 data URL from the caller: size checked before decoding, content checked by its bytes. */
export function imageFromDataUrl(dataUrl: string): string {
  return toImageDataUrl(imageBytesFromDataUrl(dataUrl, MAX_IMAGE_BYTES))
}

/** The bytes of a caller's base64 data URL, at most `maxBytes` (checked before decoding); their type is not checked. */
export function imageBytesFromDataUrl(dataUrl: string, maxBytes: number): Buffer {
  const comma = dataUrl.indexOf(",")
  const header = comma === -1 ? "" : dataUrl.slice(0, comma)
  if (!/^data:[^,]*;base64$/i.test(header)) {
    throw new ApiError(400, "INVALID_IMAGE", "The image must be a base64 data URL (data:image/png;base64,…).")
  }
  let payload = dataUrl.slice(comma + 1)
  if (/\s/.test(payload)) payload = payload.replace(/\s+/g, "")
  const padding = payload.endsWith("==") ? 2 : payload.endsWith("=") ? 1 : 0
  if (Math.floor((payload.length * 3) / 4) - padding > maxBytes) throw imageTooLarge(maxBytes)
  if (payload.length === 0 || payload.length % 4 === 1 || !BASE64.test(payload)) {
    throw new ApiError(400, "INVALID_IMAGE", "The image data is not valid base64.")
  }
  return Buffer.from(payload, "base64")
}
