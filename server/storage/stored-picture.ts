/**
 * An uploaded picture stored as the server draws it again: taken as PNG, JPEG or WebP by its bytes (never by its
 * name or declared type), decoded and re-encoded by sharp (turned upright first), so that nothing of the upload but
 * its pixels (no metadata, no trailing bytes) is ever served; written under a new random name each time, so a cached
 * copy is never stale, and handed to object storage only once complete. Logos and blog images use it.
 */
import { randomBytes } from "node:crypto"
import fs from "node:fs/promises"
import os from "node:os"
import path from "node:path"

import sharp, { type Sharp } from "sharp"

import { imageTypeOf } from "~core/images/image-type"

import { ApiError } from "../http/errors"
import type { ObjectStorage } from "./object-storage"

const PICTURE_TYPES = new Set(["image/png", "image/jpeg", "image/webp"])

export interface PictureRules {
  /** What the messages call it: "logo", "image". */
  noun: string
  maxBytes: number
  /** The 413 for more than maxBytes. */
  tooLarge: () => ApiError
  /** The largest picture decoded at all, in pixels. */
  maxInputPixels: number
  /** The drawing: resize and encode (sharp's pipeline after rotate()). */
  draw: (image: Sharp) => Sharp
  extension: "png" | "webp"
  contentType: "image/png" | "image/webp"
}

/** The stored object's name (`{prefix}-{random}.{extension}`), once it is durable; 413 or 415 for a bad upload. */
export async function storePicture(storage: ObjectStorage, prefix: string, bytes: Buffer, rules: PictureRules): Promise<string> {
  if (bytes.length > rules.maxBytes) throw rules.tooLarge()
  const type = imageTypeOf(bytes)
  if (!type || !PICTURE_TYPES.has(type)) throw new ApiError(415, "INVALID_IMAGE", `The ${rules.noun} must be a PNG, JPEG or WebP picture.`)
  let drawn: Buffer
  try {
    drawn = await rules.draw(sharp(bytes, { limitInputPixels: rules.maxInputPixels }).rotate()).toBuffer()
  } catch {
    throw new ApiError(415, "INVALID_IMAGE", `The ${rules.noun} could not be decoded: it may be damaged.`)
  }
  const name = `${prefix}-${randomBytes(8).toString("hex")}.${rules.extension}`
  const staged = path.join(await fs.mkdtemp(path.join(os.tmpdir(), "iqa-picture-")), name)
  await fs.writeFile(staged, drawn)
  try {
    await storage.put(name, staged, rules.contentType)
  } finally {
    await fs.rm(path.dirname(staged), { recursive: true, force: true })
  }
  return name
}
