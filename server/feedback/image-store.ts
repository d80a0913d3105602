import { randomBytes, randomUUID } from "node:crypto"
import fs from "node:fs/promises"
import path from "node:path"

import { FEEDBACK_IMAGE_TYPES, type FeedbackImageType } from "~core/feedback"

/** Generated names only: 32 hex characters and the extension of the type the bytes showed. */
export const STORED_IMAGE_NAME = /^[0-9a-f]{32}\.(jpg|png|gif)$/

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

/** Makes a directory entry (a created, renamed or removed file) survive a power cut or a kill. */
async function syncDirectory(dir: string): Promise<void> {
  const handle = await fs.open(dir, "r")
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}

/**
 * The feedback images on disk, within a byte budget. Bytes are reserved before they are written, in
 * one synchronous step, so parallel uploads together never pass it; the count lives in this process,
 * taken from the folder at start.
 */
export class FeedbackImageStore {
  readonly dir: string
  private readonly staging: string
  private usedBytes = 0

  constructor(
    dataDir: string,
    readonly budgetBytes: number = FEEDBACK_DISK_BUDGET_BYTES
  ) {
    this.dir = feedbackImagesDir(dataDir)
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

  /** Creates the folders and drops what a crash left behind: staged files, and stored files no row names. */
  async prepare(knownNames: () => Promise<Set<string>>): Promise<void> {
    await fs.mkdir(this.dir, { recursive: true })
    await fs.rm(this.staging, { recursive: true, force: true })
    await fs.mkdir(this.staging, { recursive: true })
    const known = await knownNames()
    let used = 0
    for (const name of await fs.readdir(this.dir)) {
      const file = path.join(this.dir, name)
      if (known.has(name)) used += (await fs.stat(file)).size
      else await fs.rm(file, { force: true })
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

  /** Moves staged files under their generated names and makes the names durable. */
  async commit(staged: readonly StagedImage[]): Promise<StoredImage[]> {
    const stored: StoredImage[] = []
    try {
      for (const image of staged) {
        const fileName = `${randomBytes(16).toString("hex")}.${FEEDBACK_IMAGE_TYPES[image.contentType]}`
        await fs.rename(image.tempPath, path.join(this.dir, fileName))
        // Its bytes now belong to the stored file; remove() gives them back.
        image.reservedBytes = 0
        stored.push({ fileName, contentType: image.contentType, byteSize: image.byteSize, originalName: image.originalName })
      }
      if (stored.length) await syncDirectory(this.dir)
    } catch (error) {
      await this.remove(stored.map((image) => image.fileName))
      await this.discard(staged)
      throw error
    }
    return stored
  }

  /** Deletes stored files and gives their bytes back to the budget. */
  async remove(fileNames: readonly string[]): Promise<void> {
    const safe = fileNames.filter((name) => STORED_IMAGE_NAME.test(name))
    await Promise.all(
      safe.map(async (name) => {
        const file = path.join(this.dir, name)
        const size = await fs.stat(file).then((stat) => stat.size, () => 0)
        await fs.rm(file, { force: true })
        this.release(size)
      })
    )
    if (safe.length) await syncDirectory(this.dir)
  }

  pathOf(fileName: string): string | null {
    return STORED_IMAGE_NAME.test(fileName) ? path.join(this.dir, fileName) : null
  }
}
