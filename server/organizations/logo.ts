/**
 * An organisation's logo: taken as PNG, JPEG or WebP by its bytes (at most 256 KB), cut to the centre square and
 * written as a 256-pixel PNG, so the extension's header shows every logo alike and nothing of the upload's metadata
 * is served again. Logos have their own object storage (the S3 bucket's organization-logos/, or DATA_DIR), apart from
 * the feedback images, whose store removes objects it does not know.
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

export const MAX_LOGO_BYTES = 256 * 1024
export const LOGO_SIDE = 256
const LOGO_TYPES = new Set(["image/png", "image/jpeg", "image/webp"])

export const logoStorage = (config: AppConfig): ObjectStorage =>
  config.s3 ? s3Storage(config.s3, "organization-logos/") : folderStorage(path.join(config.dataDir, "uploads", "organization-logos"))

export const logoTooLarge = () => new ApiError(413, "PAYLOAD_TOO_LARGE", `The logo must be at most ${MAX_LOGO_BYTES / 1024} KB.`)
const notALogo = () => new ApiError(415, "INVALID_IMAGE", "The logo must be a PNG, JPEG or WebP picture.")

/** The logo as stored: its object's name (new for each upload, so caches never show an old one) after it is durable. */
export async function storeLogo(storage: ObjectStorage, organizationId: string, bytes: Buffer): Promise<string> {
  if (bytes.length > MAX_LOGO_BYTES) throw logoTooLarge()
  const type = imageTypeOf(bytes)
  if (!type || !LOGO_TYPES.has(type)) throw notALogo()
  let png: Buffer
  try {
    png = await sharp(bytes, { limitInputPixels: 16_000_000 }).rotate().resize(LOGO_SIDE, LOGO_SIDE, { fit: "cover", position: "centre" }).png().toBuffer()
  } catch {
    throw new ApiError(415, "INVALID_IMAGE", "The logo could not be decoded: it may be damaged.")
  }
  const name = `${organizationId}-${randomBytes(8).toString("hex")}.png`
  const staged = path.join(await fs.mkdtemp(path.join(os.tmpdir(), "iqa-logo-")), name)
  await fs.writeFile(staged, png)
  try {
    await storage.put(name, staged, "image/png")
  } finally {
    await fs.rm(path.dirname(staged), { recursive: true, force: true })
  }
  return name
}
