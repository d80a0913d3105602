import { MAX_IMAGE_BYTES, type VqaImageType } from "~core/vqa"

import { ApiError } from "../http/errors"

/** The image type its leading bytes show, or null: the declared type is never trusted. */
export function detectImageType(bytes: Uint8Array): VqaImageType | null {
  const starts = (signature: number[], offset = 0) =>
    bytes.length >= offset + signature.length && signature.every((byte, index) => bytes[offset + index] === byte)
  const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0))
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png"
  if (starts([0xff, 0xd8, 0xff])) return "image/jpeg"
  if (starts(ascii("GIF87a")) || starts(ascii("GIF89a"))) return "image/gif"
  if (starts(ascii("RIFF")) && starts(ascii("WEBP"), 8)) return "image/webp"
  return null
}

export function imageTooLarge(): ApiError {
  return new ApiError(413, "IMAGE_TOO_LARGE", `The image is larger than ${MAX_IMAGE_BYTES / (1024 * 1024)} MB.`)
}

export function invalidImage(): ApiError {
  return new ApiError(400, "INVALID_IMAGE", "The image must be a PNG, JPEG, GIF or WebP picture.")
}

/** Checks image bytes and turns them into the data URL sent to the provider, with the detected type. */
export function toImageDataUrl(bytes: Uint8Array): string {
  if (bytes.length > MAX_IMAGE_BYTES) throw imageTooLarge()
  const type = detectImageType(bytes)
  if (!type) throw invalidImage()
  return `data:${type};base64,${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64")}`
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/

/** A base64 data URL from the caller: size checked before decoding, content checked by its bytes. */
export function imageFromDataUrl(dataUrl: string): string {
  const comma = dataUrl.indexOf(",")
  const header = comma === -1 ? "" : dataUrl.slice(0, comma)
  if (!/^data:[^,]*;base64$/i.test(header)) {
    throw new ApiError(400, "INVALID_IMAGE", "The image must be a base64 data URL (data:image/png;base64,…).")
  }
  let payload = dataUrl.slice(comma + 1)
  if (/\s/.test(payload)) payload = payload.replace(/\s+/g, "")
  const padding = payload.endsWith("==") ? 2 : payload.endsWith("=") ? 1 : 0
  if (Math.floor((payload.length * 3) / 4) - padding > MAX_IMAGE_BYTES) throw imageTooLarge()
  if (payload.length === 0 || payload.length % 4 === 1 || !BASE64.test(payload)) {
    throw new ApiError(400, "INVALID_IMAGE", "The image data is not valid base64.")
  }
  return toImageDataUrl(Buffer.from(payload, "base64"))
}
