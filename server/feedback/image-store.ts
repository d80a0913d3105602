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

/** A received file, written and flushed, not yet part of any feedback. */
export interface StagedImage {
  tempPath: string
  contentType: FeedbackImageType
  byteSize: number
  originalName: string
}

export interface StoredImage extends Omit<StagedImage, "tempPath"> {
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

export class FeedbackImageStore {
  readonly dir: string
  private readonly staging: string

  constructor(dataDir: string) {
    this.dir = feedbackImagesDir(dataDir)
    this.staging = stagingDir(dataDir)
  }

  /** Creates the folders and drops what a crash left behind: staged files, and stored files no row names. */
  async prepare(knownNames: () => Promise<Set<string>>): Promise<void> {
    await fs.mkdir(this.dir, { recursive: true })
    await fs.rm(this.staging, { recursive: true, force: true })
    await fs.mkdir(this.staging, { recursive: true })
    const known = await knownNames()
    for (const name of await fs.readdir(this.dir)) {
      if (!known.has(name)) await fs.rm(path.join(this.dir, name), { force: true })
    }
  }

  /** A new staging file, opened for writing; the caller writes, syncs and closes it. */
  async openStagingFile(): Promise<{ tempPath: string; handle: fs.FileHandle }> {
    const tempPath = path.join(this.staging, randomUUID())
    return { tempPath, handle: await fs.open(tempPath, "wx", 0o600) }
  }

  async discard(staged: readonly { tempPath: string }[]): Promise<void> {
    await Promise.all(staged.map((image) => fs.rm(image.tempPath, { force: true })))
  }

  /** Moves staged files under their generated names and makes the names durable. */
  async commit(staged: readonly StagedImage[]): Promise<StoredImage[]> {
    const stored: StoredImage[] = []
    try {
      for (const image of staged) {
        const fileName = `${randomBytes(16).toString("hex")}.${FEEDBACK_IMAGE_TYPES[image.contentType]}`
        await fs.rename(image.tempPath, path.join(this.dir, fileName))
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

  async remove(fileNames: readonly string[]): Promise<void> {
    const safe = fileNames.filter((name) => STORED_IMAGE_NAME.test(name))
    await Promise.all(safe.map((name) => fs.rm(path.join(this.dir, name), { force: true })))
    if (safe.length) await syncDirectory(this.dir)
  }

  pathOf(fileName: string): string | null {
    return STORED_IMAGE_NAME.test(fileName) ? path.join(this.dir, fileName) : null
  }
}
