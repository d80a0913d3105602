/**
 * tesseract.js reads every language from one folder (`langPath`, as <code>.traineddata.gz), while the packs the
 * server offers lie in several: each npm package's own, the operator's OCR_LANGUAGES_DIR, compressed copies in the
 * data folder. This keeps a private folder of links to the packs the public API has read so far, so the API reads
 * exactly the packs GET /api/ocr/languages offers, and the links go with the process.
 */
import fs from "node:fs"
import os from "node:os"
import path from "node:path"

import type { CataloguedPack } from "../ocr-languages/catalogue"

export class OcrPackLinks {
  private folder: string | null = null
  /** Code → the file its link points to. */
  private readonly linked = new Map<string, string>()

  constructor(private readonly parent: string = os.tmpdir()) {}

  /** The folder, holding a link to each of `packs`. Synchronous, so parallel calls never link one code twice. */
  folderWith(packs: readonly CataloguedPack[]): string {
    this.folder ??= fs.mkdtempSync(path.join(this.parent, "iqa-ocr-packs-"))
    for (const pack of packs) {
      if (this.linked.get(pack.code) === pack.file) continue
      const link = path.join(this.folder, `${pack.code}.traineddata.gz`)
      fs.rmSync(link, { force: true })
      fs.symlinkSync(pack.file, link)
      this.linked.set(pack.code, pack.file)
    }
    return this.folder
  }

  remove(): void {
    if (this.folder) fs.rmSync(this.folder, { recursive: true, force: true })
    this.folder = null
    this.linked.clear()
  }
}
