/**
 * The OCR language packs this server offers: the `@tesseract.js-data/<code>` npm packages that are installed, and
 * any `<code>.traineddata.gz` or plain `<code>.traineddata` an operator puts in OCR_LANGUAGES_DIR (which wins over a
 * package of the same code): a tessdata folder as Debian installs it offers every language it holds. Plain files
 * are compressed once and kept (./compressed-packs). Each pack is hashed once per process, on first use, so the
 * list can tell the extension what a download must hash to.
 */
import { createHash } from "node:crypto"
import { createReadStream } from "node:fs"
import fs from "node:fs/promises"
import { createRequire } from "node:module"
import path from "node:path"

import type { FastifyBaseLogger } from "fastify"

import {
  BUNDLED_OCR_LANGUAGE,
  KNOWN_OCR_LANGUAGES,
  knownOcrLanguage,
  isVerticalTextPack,
  languageOfVerticalPack,
  OCR_LANGUAGE_CODE_PATTERN,
  SCRIPT_DETECTION_PACK,
  VERTICAL_TEXT_PACKS,
  type OcrLanguageInfo,
  type OcrLanguagePack
} from "~core/ocr/ocr-languages"

import { CompressedPackCache } from "./compressed-packs"

const PACK_SUFFIX = ".traineddata.gz"
const PLAIN_PACK_SUFFIX = ".traineddata"

/**
 * Models tessdata holds that are not languages, with why they are not offered. (Its script/<Script> models sit in a
 * subfolder, which is not read: one per writing system, each of whose languages has its own model here.)
 */
const NOT_LANGUAGES: Readonly<Record<string, string>> = {
  equ: "equ is tesseract's model of mathematical equations, for its legacy engine, which the extension does not run"
}

/** tesseract refuses a model whose header counts more entries (TessdataManager's kMaxNumTessdataEntries). */
const MAX_TRAINEDDATA_ENTRIES = 1000

/** tesseract.js's recommended variant: integer-quantised LSTM models, close to "best" in accuracy at a fraction of its size. */
const PACKAGE_VARIANT_FOLDER = "4.0.0_best_int"

const GZIP_MAGIC = Buffer.from([0x1f, 0x8b])

const SCRIPT_DETECTION_INFO: OcrLanguageInfo = {
  code: SCRIPT_DETECTION_PACK,
  name: "Orientation and script detection",
  nativeName: "Orientation and script detection",
  script: "Multiple"
}

export interface CataloguedPack extends OcrLanguagePack {
  /** Where the bytes are read from; never sent to clients. */
  file: string
}

export interface OcrCatalogue {
  /** Recognisable languages, English first, then by English name. */
  languages: CataloguedPack[]
  scriptDetection: CataloguedPack | null
  /** Packs for vertical text, read with the language they go with. */
  verticalText: CataloguedPack[]
  /** Every pack, osd and vertical ones included, by code: what the download route may serve. */
  byCode: ReadonlyMap<string, CataloguedPack>
}

interface PackSource {
  code: string
  file: string
  /** A plain .traineddata: served through its compressed copy. */
  plain: boolean
}

const requireFromHere = createRequire(import.meta.url)

/** The package's best_int file, or undefined when the package is not installed. */
function packagedPackFile(code: string): string | undefined {
  try {
    const manifest = requireFromHere.resolve(`@tesseract.js-data/${code}/package.json`)
    return path.join(path.dirname(manifest), PACKAGE_VARIANT_FOLDER, `${code}${PACK_SUFFIX}`)
  } catch {
    return undefined
  }
}

function packagedSources(): PackSource[] {
  const codes = [...KNOWN_OCR_LANGUAGES.map((language) => language.code), ...Object.values(VERTICAL_TEXT_PACKS), SCRIPT_DETECTION_PACK]
  return codes.flatMap((code) => {
    const file = packagedPackFile(code)
    return file ? [{ code, file, plain: false }] : []
  })
}

async function startsWithGzipMagic(file: string): Promise<boolean> {
  const handle = await fs.open(file)
  try {
    const head = Buffer.alloc(GZIP_MAGIC.length)
    const { bytesRead } = await handle.read(head, 0, head.length, 0)
    return bytesRead === head.length && head.equals(GZIP_MAGIC)
  } finally {
    await handle.close()
  }
}

/**
 * Whether the file is laid out as tesseract's model files are: a little-endian count of entries, then each entry's
 * offset (-1 for none), every present one inside the file and after the previous one. Catches a truncated, empty or
 * foreign file before a browser downloads it, without reading the model.
 */
async function isTraineddata(file: string): Promise<boolean> {
  const handle = await fs.open(file)
  try {
    const { size } = await handle.stat()
    const count = Buffer.alloc(4)
    if ((await handle.read(count, 0, 4, 0)).bytesRead < 4) return false
    const entries = count.readUInt32LE(0)
    const headerBytes = 4 + 8 * entries
    if (entries === 0 || entries > MAX_TRAINEDDATA_ENTRIES || headerBytes > size) return false
    const table = Buffer.alloc(8 * entries)
    await handle.read(table, 0, table.length, 4)
    const offsets = Array.from({ length: entries }, (_, index) => table.readBigInt64LE(8 * index)).filter((offset) => offset !== -1n)
    return offsets.length > 0 && offsets.every((offset, index) => offset >= headerBytes && offset < size && (index === 0 || offset > offsets[index - 1]!))
  } finally {
    await handle.close()
  }
}

/** The code a file name offers and whether it is plain; null for files that are not packs by name. */
function packName(name: string): { code: string; plain: boolean } | null {
  if (name.endsWith(PACK_SUFFIX)) return { code: name.slice(0, -PACK_SUFFIX.length), plain: false }
  if (name.endsWith(PLAIN_PACK_SUFFIX)) return { code: name.slice(0, -PLAIN_PACK_SUFFIX.length), plain: true }
  return null
}

/** Why the folder's file cannot be offered, or null when it can. */
async function unusableBecause(code: string, file: string, plain: boolean): Promise<string | null> {
  if (!OCR_LANGUAGE_CODE_PATTERN.test(code)) return "its name is not a tesseract code (lower-case, like eng or chi_sim) followed by .traineddata or .traineddata.gz"
  if (NOT_LANGUAGES[code]) return NOT_LANGUAGES[code]
  if (plain) return (await isTraineddata(file)) ? null : "it is not a tesseract model (.traineddata)"
  return (await startsWithGzipMagic(file)) ? null : "it is not gzip-compressed (.traineddata.gz)"
}

/** The folder's usable packs; anything else in it is skipped with a warning the operator can act on. */
async function operatorSources(folder: string, log: FastifyBaseLogger): Promise<PackSource[]> {
  let names: string[]
  try {
    names = await fs.readdir(folder)
  } catch (error) {
    log.warn({ err: error, folder }, "OCR_LANGUAGES_DIR cannot be read: only the packaged OCR languages are offered")
    return []
  }
  const sources = new Map<string, PackSource>()
  // Sorted, so that of "x.traineddata" and "x.traineddata.gz" the compressed one, coming second, is the one kept.
  for (const name of names.sort()) {
    const named = packName(name)
    if (!named) continue
    const file = path.join(folder, name)
    try {
      if (!(await fs.stat(file)).isFile()) continue
      const reason = await unusableBecause(named.code, file, named.plain)
      if (reason) {
        log.warn({ file }, `OCR language pack ignored: ${reason}`)
        continue
      }
    } catch (error) {
      log.warn({ err: error, file }, "OCR language pack ignored: it cannot be read")
      continue
    }
    sources.set(named.code, { code: named.code, file, plain: named.plain })
  }
  return [...sources.values()]
}

async function hashFile(file: string): Promise<{ size: number; sha256: string }> {
  const hash = createHash("sha256")
  let size = 0
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    hash.update(chunk)
    size += chunk.length
  }
  return { size, sha256: hash.digest("hex") }
}

function languageInfo(code: string): OcrLanguageInfo {
  if (code === SCRIPT_DETECTION_PACK) return SCRIPT_DETECTION_INFO
  const verticalOf = languageOfVerticalPack(code)
  if (verticalOf) {
    const language = languageInfo(verticalOf)
    return { code, name: `${language.name}, vertical text`, nativeName: language.nativeName, script: language.script }
  }
  return knownOcrLanguage(code) ?? { code, name: code, nativeName: code, script: "Unknown" }
}

function byDisplayOrder(a: CataloguedPack, b: CataloguedPack): number {
  if (a.code === BUNDLED_OCR_LANGUAGE || b.code === BUNDLED_OCR_LANGUAGE) return a.code === BUNDLED_OCR_LANGUAGE ? -1 : 1
  return a.name.localeCompare(b.name, "en") || a.code.localeCompare(b.code, "en")
}

/** What the download sends for this source: the file itself, or a plain file's compressed copy. */
async function servedBytes({ file, plain }: PackSource, compressed: CompressedPackCache): Promise<{ file: string; size: number; sha256: string }> {
  if (!plain) return { file, ...(await hashFile(file)) }
  return compressed.compressedCopy(file, (await hashFile(file)).sha256)
}

async function buildCatalogue({ operatorFolder }: CatalogueFolders, log: FastifyBaseLogger, compressed: CompressedPackCache): Promise<OcrCatalogue> {
  const sources = new Map<string, PackSource>()
  for (const source of packagedSources()) sources.set(source.code, source)
  if (operatorFolder) for (const source of await operatorSources(operatorFolder, log)) sources.set(source.code, source)

  const packs = await Promise.all(
    [...sources.values()].map(async (source): Promise<CataloguedPack | null> => {
      const { code, file } = source
      try {
        const served = await servedBytes(source, compressed)
        if (served.size === 0) {
          log.warn({ file }, "OCR language pack ignored: the file is empty")
          return null
        }
        return { ...languageInfo(code), ...served }
      } catch (error) {
        log.warn({ err: error, file }, "OCR language pack ignored: it cannot be read")
        return null
      }
    })
  )
  const available = packs.filter((pack) => pack !== null)
  return {
    languages: available.filter((pack) => pack.code !== SCRIPT_DETECTION_PACK && !isVerticalTextPack(pack.code)).sort(byDisplayOrder),
    scriptDetection: available.find((pack) => pack.code === SCRIPT_DETECTION_PACK) ?? null,
    verticalText: available.filter((pack) => isVerticalTextPack(pack.code)).sort(byDisplayOrder),
    byCode: new Map(available.map((pack) => [pack.code, pack]))
  }
}

export interface CatalogueFolders {
  /** OCR_LANGUAGES_DIR. */
  operatorFolder: string | undefined
  /** Where plain packs' compressed copies are kept. */
  cacheFolder: string
}

/** Builds the catalogue on first use; every caller until then waits for that one build. */
export class OcrLanguageCatalogue {
  private catalogue: Promise<OcrCatalogue> | undefined
  private readonly compressed: CompressedPackCache

  constructor(
    private readonly folders: CatalogueFolders,
    private readonly log: FastifyBaseLogger
  ) {
    this.compressed = new CompressedPackCache(folders.cacheFolder, log)
  }

  /** An operator's folder may take a while to hash: worth starting at start. */
  get hasOperatorFolder(): boolean {
    return this.folders.operatorFolder !== undefined
  }

  load(): Promise<OcrCatalogue> {
    if (!this.catalogue) {
      const building = buildCatalogue(this.folders, this.log, this.compressed)
      // A failed build is not kept: the next request tries again.
      building.catch(() => {
        if (this.catalogue === building) this.catalogue = undefined
      })
      this.catalogue = building
    }
    return this.catalogue
  }
}

/** What a client is told about a pack: everything but where it lies on disk. */
export function publicPack({ code, name, nativeName, script, size, sha256 }: CataloguedPack): OcrLanguagePack {
  return { code, name, nativeName, script, size, sha256 }
}
