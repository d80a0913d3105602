/**
 * The OCR language packs this server offers: the `@tesseract.js-data/<code>` npm packages that are installed, and
 * any `<code>.traineddata.gz` an operator puts in OCR_LANGUAGES_DIR (which wins over a package of the same code).
 * Each pack is hashed once per process, on first use, so the list can tell the extension what a download must hash to.
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
} from "~core/ocr-languages"

const PACK_SUFFIX = ".traineddata.gz"

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
    return file ? [{ code, file }] : []
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

/** The folder's usable packs; anything else in it is skipped with a warning the operator can act on. */
async function operatorSources(folder: string, log: FastifyBaseLogger): Promise<PackSource[]> {
  let names: string[]
  try {
    names = await fs.readdir(folder)
  } catch (error) {
    log.warn({ err: error, folder }, "OCR_LANGUAGES_DIR cannot be read: only the packaged OCR languages are offered")
    return []
  }
  const sources: PackSource[] = []
  for (const name of names.filter((entry) => entry.endsWith(PACK_SUFFIX)).sort()) {
    const code = name.slice(0, -PACK_SUFFIX.length)
    const file = path.join(folder, name)
    if (!OCR_LANGUAGE_CODE_PATTERN.test(code)) {
      log.warn({ file }, "OCR language pack ignored: its name is not a tesseract code (lower-case, like eng or chi_sim) followed by .traineddata.gz")
      continue
    }
    try {
      if (!(await fs.stat(file)).isFile()) continue
      if (!(await startsWithGzipMagic(file))) {
        log.warn({ file }, "OCR language pack ignored: it is not gzip-compressed (.traineddata.gz)")
        continue
      }
    } catch (error) {
      log.warn({ err: error, file }, "OCR language pack ignored: it cannot be read")
      continue
    }
    sources.push({ code, file })
  }
  return sources
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

async function buildCatalogue(operatorFolder: string | undefined, log: FastifyBaseLogger): Promise<OcrCatalogue> {
  const sources = new Map<string, string>()
  for (const { code, file } of packagedSources()) sources.set(code, file)
  if (operatorFolder) for (const { code, file } of await operatorSources(operatorFolder, log)) sources.set(code, file)

  const packs = await Promise.all(
    [...sources].map(async ([code, file]): Promise<CataloguedPack | null> => {
      try {
        const { size, sha256 } = await hashFile(file)
        if (size === 0) {
          log.warn({ file }, "OCR language pack ignored: the file is empty")
          return null
        }
        return { ...languageInfo(code), size, sha256, file }
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

/** Builds the catalogue on first use; every caller until then waits for that one build. */
export class OcrLanguageCatalogue {
  private catalogue: Promise<OcrCatalogue> | undefined

  constructor(
    private readonly operatorFolder: string | undefined,
    private readonly log: FastifyBaseLogger
  ) {}

  load(): Promise<OcrCatalogue> {
    if (!this.catalogue) {
      const building = buildCatalogue(this.operatorFolder, this.log)
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
