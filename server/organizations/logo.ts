/**
 * An organisation's logo: taken as PNG, JPEG or WebP by its bytes (at most 256 KB), cut to the centre square and
 * written as a 256-pixel PNG, so the extension's header shows every logo alike and nothing of the upload's metadata
 * is served again. Logos have their own object storage (the S3 bucket's organization-logos/, or DATA_DIR), apart from
 * the feedback images, whose store removes objects it does not know.
 */
import path from "node:path"

import type { AppConfig } from "../config"
import { ApiError } from "../http/errors"
import { folderStorage } from "../storage/folder-storage"
import type { ObjectStorage } from "../storage/object-storage"
import { s3Storage } from "../storage/s3-storage"
import { storePicture } from "../storage/stored-picture"

export const MAX_LOGO_BYTES = 256 * 1024
export const LOGO_SIDE = 256

export const logoStorage = (config: AppConfig): ObjectStorage =>
  config.s3 ? s3Storage(config.s3, "organization-logos/") : folderStorage(path.join(config.dataDir, "uploads", "organization-logos"))

export const logoTooLarge = () => new ApiError(413, "PAYLOAD_TOO_LARGE", `The logo must be at most ${MAX_LOGO_BYTES / 1024} KB.`)

/** The logo as stored: its object's name (new for each upload, so caches never show an old one) after it is durable. */
export const storeLogo = (storage: ObjectStorage, organizationId: string, bytes: Buffer): Promise<string> =>
  storePicture(storage, organizationId, bytes, {
    noun: "logo",
    maxBytes: MAX_LOGO_BYTES,
    tooLarge: logoTooLarge,
    maxInputPixels: 16_000_000,
    draw: (image) => image.resize(LOGO_SIDE, LOGO_SIDE, { fit: "cover", position: "centre" }).png(),
    extension: "png",
    contentType: "image/png"
  })
