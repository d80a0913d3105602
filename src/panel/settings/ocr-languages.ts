/**
 * The OCR languages the side panel offers: English inside the extension always, the others as language packs
 * from our server's list (GET /api/ocr/languages), each downloaded once and kept (~analysis/ocr-packs).
 */
import { useEffect, useState } from "react"

import { LanguagePackError, loadLanguagePack, packProgressText, tesseractCachePackStore, type PackStore } from "~analysis/ocr-packs"
import type { AnalysisProgress } from "~analysis/engine"
import { createScriptDetector, type Rotation, type ScriptDetection, type ScriptDetector } from "~analysis/ocr-script"
import {
  BUNDLED_OCR_LANGUAGE,
  knownOcrLanguage,
  languagesForScript,
  ocrLanguageListSchema,
  SCRIPT_DETECTION_PACK,
  VERTICAL_TEXT_PACKS,
  type OcrLanguageInfo,
  type OcrLanguageList
} from "~core/ocr/ocr-languages"
import { getApiOrigin } from "~extension/site-link/api-origin"
import { extensionApi } from "~extension/account/extension-session"
import { fetchRecorded } from "~extension/account/sent-ledger"

export const LANGUAGES_UNAVAILABLE_MESSAGE = "More languages come from the Image Query AI service, which could not be reached. English works on this device."

const ENGLISH: OcrLanguageInfo = knownOcrLanguage(BUNDLED_OCR_LANGUAGE)!

/** What the picker shows: English, then the server's packs. */
export interface OcrLanguageChoices {
  status: "loading" | "ready" | "unavailable"
  languages: OcrLanguageInfo[]
  /** The server offers the orientation and script detection pack. */
  scriptDetection: boolean
}

let listRequest: { apiOrigin: string; list: Promise<OcrLanguageList> } | null = null

/** The server's pack list, asked once per panel and service address (again after a failure). */
export async function fetchOcrLanguageList(): Promise<OcrLanguageList> {
  const apiOrigin = await getApiOrigin()
  if (listRequest?.apiOrigin !== apiOrigin) {
    const request = {
      apiOrigin,
      list: extensionApi()
        .get<unknown>("/api/ocr/languages", { auth: "none" })
        .then((data) => ocrLanguageListSchema.parse(data))
    }
    listRequest = request
    request.list.catch(() => {
      if (listRequest === request) listRequest = null
    })
  }
  return listRequest.list
}

export function choicesFrom(list: OcrLanguageList | null): OcrLanguageInfo[] {
  const others = (list?.languages ?? []).filter((pack) => pack.code !== BUNDLED_OCR_LANGUAGE)
  return [ENGLISH, ...others.map(({ code, name, nativeName, script }) => ({ code, name, nativeName, script }))]
}

export function useOcrLanguageChoices(): OcrLanguageChoices {
  const [choices, setChoices] = useState<OcrLanguageChoices>({ status: "loading", languages: [ENGLISH], scriptDetection: false })
  useEffect(() => {
    let current = true
    fetchOcrLanguageList().then(
      (list) => current && setChoices({ status: "ready", languages: choicesFrom(list), scriptDetection: list.scriptDetection !== null }),
      () => current && setChoices({ status: "unavailable", languages: [ENGLISH], scriptDetection: false })
    )
    return () => {
      current = false
    }
  }, [])
  return choices
}

/** "English + हिन्दी (Hindi)" */
export function languageNames(codes: readonly string[], languages: readonly OcrLanguageInfo[]): string {
  return codes
    .map((code) => {
      const language = languages.find((candidate) => candidate.code === code) ?? knownOcrLanguage(code)
      if (!language) return code
      return language.nativeName === language.name ? language.name : `${language.nativeName} (${language.name})`
    })
    .join(" + ")
}

const folded = (text: string) => text.normalize("NFD").replace(/\p{Mark}/gu, "").toLowerCase()

/** The language's English or own name, code or script holds the query, whatever the accents and case ("portugues", "рус", "chi_"). */
export function languageMatches(language: OcrLanguageInfo, query: string): boolean {
  const wanted = folded(query.trim())
  return [language.name, language.nativeName, language.code, language.script].some((field) => folded(field).includes(wanted))
}

let packStore: PackStore | null = null

/**
 * Makes sure the verified pack of each chosen language other than English (which is shipped) is on the device,
 * where the OCR engine reads it; downloaded with progress the first time. Rejects with a LanguagePackError in
 * plain words.
 */
export async function prepareOcrLanguages(codes: readonly string[], onProgress?: (progress: AnalysisProgress) => void): Promise<void> {
  const wanted = codes.filter((code) => code !== BUNDLED_OCR_LANGUAGE)
  if (wanted.length === 0) return
  let list: OcrLanguageList
  try {
    list = await fetchOcrLanguageList()
  } catch {
    throw new LanguagePackError(LANGUAGES_UNAVAILABLE_MESSAGE)
  }
  const apiOrigin = await getApiOrigin()
  packStore ??= tesseractCachePackStore()
  for (const code of wanted) {
    const pack = [...list.languages, ...list.verticalText, list.scriptDetection].find((candidate) => candidate?.code === code)
    if (!pack) throw new LanguagePackError(`The Image Query AI service no longer offers ${languageNames([code], [])}. Choose another language.`)
    await loadLanguagePack(pack, {
      apiOrigin,
      store: packStore,
      fetch: fetchRecorded,
      onProgress: (progress) => onProgress?.({ stage: packProgressText(pack, progress), fraction: progress.loadedBytes / progress.totalBytes })
    })
  }
}

/**
 * The models to read these languages with: each with its vertical-text model when the server offers one
 * ("jpn" → "jpn", "jpn_vert"), so that text set top to bottom is read too. Without the list, the languages alone.
 */
export async function withVerticalText(codes: readonly string[]): Promise<string[]> {
  if (!codes.some((code) => VERTICAL_TEXT_PACKS[code])) return [...codes]
  const offered = await fetchOcrLanguageList().then(
    (list) => new Set(list.verticalText.map((pack) => pack.code)),
    () => new Set<string>()
  )
  return codes.flatMap((code) => {
    const vertical = VERTICAL_TEXT_PACKS[code]
    return vertical && offered.has(vertical) ? [code, vertical] : [code]
  })
}

/** How "Detect language" decided to read an image. */
export interface TextReading {
  /** The script tesseract saw, null when it could not tell (too little text) or detection failed. */
  script: string | null
  /** The languages the text was read in. */
  languages: string[]
  /** The clockwise turn applied before reading. */
  rotation: Rotation
  /** Why the chosen languages were used instead, in plain words (detection unavailable or unsure). */
  note?: string
}

let scriptDetector: ScriptDetector | null = null

/**
 * "Detect language": the script and orientation of the image, and the languages to read it in (of that script:
 * the user's chosen ones when they are written in it, else the first offered). Never fails the reading: when
 * detection cannot run or cannot tell, the chosen languages are used and `note` says why.
 */
export async function detectReading(image: Blob, chosen: readonly string[], onProgress?: (progress: AnalysisProgress) => void): Promise<TextReading> {
  const readInChosen = `Read in ${languageNames(chosen, [])}.`
  const fallback = (why: string, seen: Partial<TextReading> = {}): TextReading => ({ script: null, languages: [...chosen], rotation: 0, ...seen, note: `${why} ${readInChosen}` })
  let offered: string[]
  try {
    const list = await fetchOcrLanguageList()
    if (!list.scriptDetection) return fallback("The Image Query AI service does not offer language detection.")
    offered = [BUNDLED_OCR_LANGUAGE, ...list.languages.map((pack) => pack.code)]
    // The detector keeps the pack in memory once loaded: it is checked on the device only when the detector is made.
    if (!scriptDetector) {
      await prepareOcrLanguages([SCRIPT_DETECTION_PACK], onProgress)
      scriptDetector ??= createScriptDetector()
    }
  } catch (error) {
    const reason = error instanceof LanguagePackError ? error.message : LANGUAGES_UNAVAILABLE_MESSAGE
    return fallback(`Language detection is unavailable: ${reason}`)
  }
  try {
    await scriptDetector.load(onProgress)
  } catch (error) {
    // Made again next time, with its pack checked again: the kept copy may be what failed.
    scriptDetector = null
    return fallback(error instanceof Error ? error.message : "Language detection failed.")
  }
  let detection: ScriptDetection
  try {
    onProgress?.({ stage: "Detecting the language…" })
    detection = await scriptDetector.run(image)
  } catch (error) {
    return fallback(error instanceof Error ? error.message : "Language detection failed.")
  }
  const { script, rotation } = detection
  if (!script) return fallback("Too little text to tell its script.", { rotation })
  const languages = languagesForScript(script, chosen, offered)
  if (!languages) return fallback(`No language of the ${script} script is offered.`, { script, rotation })
  return { script, languages, rotation }
}
