/**
 * A post's featured image: a PNG, JPEG or WebP of at most 5 MB, fitted within 1600 pixels and drawn again as WebP
 * (../storage/stored-picture.ts). The images have their own object storage (the S3 bucket's blog-images/, or DATA_DIR), as the logos do.
 */
import path from "node:path"

import type { AppConfig } from "../config"
import { ApiError } from "../http/errors"
import { folderStorage } from "../storage/folder-storage"
import type { ObjectStorage } from "../storage/object-storage"
import { s3Storage } from "../storage/s3-storage"
import { storePicture } from "../storage/stored-picture"

export const MAX_POST_IMAGE_BYTES = 5 * 1024 * 1024
export const POST_IMAGE_MAX_SIDE = 1600
/** The names this module gives: the post's id, a random part (a new address per upload), .webp. */
export const POST_IMAGE_NAME = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}-[0-9a-f]{16}\.webp$/

export const postImageStorage = (config: AppConfig): ObjectStorage =>
  config.s3 ? s3Storage(config.s3, "blog-images/") : folderStorage(path.join(config.dataDir, "uploads", "blog-images"))

/** The image's public address; a new name for each upload, so a cached copy is never stale. */
export const postImageUrl = (publicUrl: string, key: string | null) => (key ? `${publicUrl}/api/blog/images/${key}` : null)

export const postImageTooLarge = () => new ApiError(413, "PAYLOAD_TOO_LARGE", `The image must be at most ${MAX_POST_IMAGE_BYTES / 1024 / 1024} MB.`)

/** The image as stored: its object's name, once it is durable. */
export const storePostImage = (storage: ObjectStorage, postId: string, bytes: Buffer): Promise<string> =>
  storePicture(storage, postId, bytes, {
    noun: "image",
    maxBytes: MAX_POST_IMAGE_BYTES,
    tooLarge: postImageTooLarge,
    maxInputPixels: 40_000_000,
    draw: (image) => image.resize(POST_IMAGE_MAX_SIDE, POST_IMAGE_MAX_SIDE, { fit: "inside", withoutEnlargement: true }).webp({ quality: 82 }),
    extension: "webp",
    contentType: "image/webp"
  })
