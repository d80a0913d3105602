import { randomBytes, randomUUID } from "node:crypto"
import fs from "node:fs/promises"
import path from "node:path"
import type { Readable } from "node:stream"

import { FEEDBACK_IMAGE_TYPES, type FeedbackImageType } from "~core/admin/feedback"

import { StorageUnavailableError, type ObjectStorage } from "../storage/object-storage"

/** Generated names only: 32 hex characters and the extension of the type the bytes showed. */
export const STORED_IMAGE_NAME = /^[0-9a-f]{32}\.(jpg|png|gif)$/

/** Where feedback images sit in a bucket shared with other uses. */
export const FEEDBACK_IMAGES_PREFIX = "feedback/"

export function feedbackImagesDir(dataDir: string): string {
  return path.join(dataDir, "uploads", "feedback")
}

function stagingDir(dataDir: string): string {
  return path.join(dataDir, "uploads", "incoming")
}

/** What all stored feedback images may take on disk together, unless the app is given another budget. */
export const FEEDBACK_DISK_BUDGET_BYTES = 1024 * 1024 * 1024

/** A received file, written and flushed, not yet part of any feedback. */
export interface StagedImage {
  tempPath: string
  contentType: FeedbackImageType
  byteSize: number
  originalName: string
  /** Bytes of the disk budget this staging file holds: those written to it. */
  reservedBytes: number
}

export interface StoredImage extends Omit<StagedImage, "tempPath" | "reservedBytes"> {
  fileName: string
}

/** An object no feedback names, younger than this, may be an upload another instance is finishing: it is kept. */
export const ORPHAN_GRACE_MS = 60 * 60_000

/**
 * The feedback images: received into a staging folder of this instance, then stored in the object storage (DATA_DIR
 * or S3) under generated names, within a byte budget. Bytes are reserved before they are written, in one
 * synchronous step, so parallel uploads together never pass it; the count lives in this process, taken from the
 * storage at start.
 */
export class FeedbackImageStore {
  private readonly staging: string
  private usedBytes = 0

  constructor(
    dataDir: string,
    readonly storage: ObjectStorage,
    readonly budgetBytes: number = FEEDBACK_DISK_BUDGET_BYTES,
    private readonly clock: () => number = Date.now
  ) {
    this.staging = stagingDir(dataDir)
  }

  /** Bytes held by stored images and by uploads being written. */
  get used(): number {
    return this.usedBytes
  }

  /** Takes bytes from the budget for a staging file and answers true, or answers false and takes nothing. */
  reserve(image: StagedImage, bytes: number): boolean {
    if (this.usedBytes + bytes > this.budgetBytes) return false
    this.usedBytes += bytes
    image.reservedBytes += bytes
    return true
  }

  private release(bytes: number): void {
    this.usedBytes = Math.max(0, this.usedBytes - bytes)
  }

  /**
   * Empties the staging folder and drops stored objects no row names: what a crash left behind. Storage shared with
   * other instances keeps such objects for ORPHAN_GRACE_MS, since one of them may be about to write their row.
   */
  async prepare(knownNames: () => Promise<Set<string>>): Promise<void> {
    await fs.rm(this.staging, { recursive: true, force: true })
    await fs.mkdir(this.staging, { recursive: true })
    const known = await knownNames()
    // A folder is this instance's alone: whatever no feedback names goes, whatever its time says (a file written in
    // the same millisecond as the start has a time after the clock's, which has no fraction).
    const withinGrace = (modifiedAt: number) => this.storage.kind !== "folder" && this.clock() - modifiedAt < ORPHAN_GRACE_MS
    let used = 0
    for (const object of await this.storage.list()) {
      if (known.has(object.name)) used += object.size
      else if (!withinGrace(object.modifiedAt)) await this.storage.remove(object.name)
    }
    this.usedBytes = used
  }

  /** A new staging file, opened for writing and for reading its header back; the caller writes, syncs and closes it. */
  async openStagingFile(): Promise<{ tempPath: string; handle: fs.FileHandle }> {
    const tempPath = path.join(this.staging, randomUUID())
    return { tempPath, handle: await fs.open(tempPath, "wx+", 0o600) }
  }

  /** Deletes staging files and gives their bytes back. */
  async discard(staged: readonly StagedImage[]): Promise<void> {
    await Promise.all(
      staged.map(async (image) => {
        await fs.rm(image.tempPath, { force: true })
        this.release(image.reservedBytes)
        image.reservedBytes = 0
      })
    )
  }

  /**
   * Stores the staged files under generated names; resolves once every one is durable. When the storage fails,
   * what was stored of them is removed, the staging files go, and StorageUnavailableError is thrown.
   */
  async commit(staged: readonly StagedImage[]): Promise<StoredImage[]> {
    const stored: StoredImage[] = []
    try {
      for (const image of staged) {
        const fileName = `${randomBytes(16).toString("hex")}.${FEEDBACK_IMAGE_TYPES[image.contentType]}`
        await this.storage.put(fileName, image.tempPath, image.contentType)
        stored.push({ fileName, contentType: image.contentType, byteSize: image.byteSize, originalName: image.originalName })
        // Its bytes now belong to the stored object; remove() gives them back.
        image.reservedBytes = 0
      }
    } catch (error) {
      await this.remove(stored).catch(() => {})
      await this.discard(staged)
      throw new StorageUnavailableError(error)
    }
    return stored
  }

  /** Deletes stored objects and gives their bytes back to the budget. */
  async remove(images: readonly Pick<StoredImage, "fileName" | "byteSize">[]): Promise<void> {
    for (const image of images.filter((candidate) => STORED_IMAGE_NAME.test(candidate.fileName))) {
      await this.storage.remove(image.fileName)
      this.release(image.byteSize)
    }
  }

  /** The stored image's bytes, or null for a name we would not have generated or that is not stored. */
  async read(fileName: string): Promise<Readable | null> {
    return STORED_IMAGE_NAME.test(fileName) ? this.storage.read(fileName) : null
  }
}
