import { createReadStream } from "node:fs"
import fs from "node:fs/promises"
import path from "node:path"

import type { ObjectStorage } from "./object-storage"

/** Makes a directory entry (a created, renamed or removed file) survive a power cut or a kill. */
async function syncDirectory(dir: string): Promise<void> {
  const handle = await fs.open(dir, "r")
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}

/** Objects as files of one folder on this machine; a put is a rename, made durable before it resolves. */
export function folderStorage(dir: string): ObjectStorage {
  const fileOf = (name: string) => path.join(dir, name)
  return {
    kind: "folder",
    async put(name, sourcePath) {
      await fs.mkdir(dir, { recursive: true })
      await fs.rename(sourcePath, fileOf(name))
      await syncDirectory(dir)
    },
    async read(name) {
      const handle = await fs.open(fileOf(name), "r").catch(() => null)
      return handle ? createReadStream("", { fd: handle }) : null
    },
    async remove(name) {
      await fs.rm(fileOf(name), { force: true })
      await syncDirectory(dir)
    },
    async list() {
      await fs.mkdir(dir, { recursive: true })
      const names = await fs.readdir(dir)
      const entries = await Promise.all(
        names.map(async (name) => {
          const stat = await fs.stat(fileOf(name)).catch(() => null)
          return stat?.isFile() ? { name, size: stat.size, modifiedAt: stat.mtimeMs } : null
        })
      )
      return entries.filter((entry) => entry !== null)
    },
    async check() {
      await fs.mkdir(dir, { recursive: true })
      const probe = fileOf(`.probe-${process.pid}`)
      await fs.writeFile(probe, "")
      await fs.rm(probe)
    }
  }
}
