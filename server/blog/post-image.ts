/**
 * A post's featured image: taken as PNG, JPEG or WebP by its bytes (at most 5 MB), turned upright, fitted within
 * 1600 pixels and written again as WebP, so nothing of the upload but its pixels (no metadata, no trailing bytes) is
 * ever served. The images have their own object storage (the S3 bucket's blog-images/, or DATA_DIR), as the logos do.
 */
import { randomBytes } from "node:crypto"
import fs from "node:fs/promises"
import os from "node:os"
import path from "node:path"

import sharp from "sharp"

import { imageTypeOf } from "~core/image-type"

import type { AppConfig } from "../config"
import { ApiError } from "../http/errors"
import { folderStorage } from "../storage/folder-storage"
import type { ObjectStorage } from "../storage/object-storage"
import { s3Storage } from "../storage/s3-storage"

export const MAX_POST_IMAGE_BYTES = 5 * 1024 * 1024
export const POST_IMAGE_MAX_SIDE = 1600
const IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/webp"])
/** The names this module gives: the post's id, a random part (a new address per upload), .webp. */
export const POST_IMAGE_NAME = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}-[0-9a-f]{16}\.webp$/

export const postImageStorage = (config: AppConfig): ObjectStorage =>
  config.s3 ? s3Storage(config.s3, "blog-images/") : folderStorage(path.join(config.dataDir, "uploads", "blog-images"))

/** The image's public address; a new name for each upload, so a cached copy is never stale. */
export const postImageUrl = (publicUrl: string, key: string | null) => (key ? `${publicUrl}/api/blog/images/${key}` : null)

export const postImageTooLarge = () => new ApiError(413, "PAYLOAD_TOO_LARGE", `The image must be at most ${MAX_POST_IMAGE_BYTES / 1024 / 1024} MB.`)

/** The image as stored: its object's name, once it is durable. */
export async function storePostImage(storage: ObjectStorage, postId: string, bytes: Buffer): Promise<string> {
  if (bytes.length > MAX_POST_IMAGE_BYTES) throw postImageTooLarge()
  const type = imageTypeOf(bytes)
  if (!type || !IMAGE_TYPES.has(type)) throw new ApiError(415, "INVALID_IMAGE", "The image must be a PNG, JPEG or WebP picture.")
  let webp: Buffer
  try {
    webp = await sharp(bytes, { limitInputPixels: 40_000_000 })
      .rotate()
      .resize(POST_IMAGE_MAX_SIDE, POST_IMAGE_MAX_SIDE, { fit: "inside", withoutEnlargement: true })
      .webp({ quality: 82 })
      .toBuffer()
  } catch {
    throw new ApiError(415, "INVALID_IMAGE", "The image could not be decoded: it may be damaged.")
  }
  const name = `${postId}-${randomBytes(8).toString("hex")}.webp`
  const staged = path.join(await fs.mkdtemp(path.join(os.tmpdir(), "iqa-post-image-")), name)
  await fs.writeFile(staged, webp)
  try {
    await storage.put(name, staged, "image/webp")
  } finally {
    await fs.rm(path.dirname(staged), { recursive: true, force: true })
  }
  return name
}
