/**
 * The OCR languages the side panel offers: English inside the extension always, the others as language packs
 * from our server's list (GET /api/ocr/languages), each downloaded once and kept (~analysis/ocr-packs).
 */
import { useEffect, useState } from "react"

import { LanguagePackError, loadLanguagePack, packProgressText, tesseractCachePackStore, type PackStore } from "~analysis/ocr-packs"
import type { AnalysisProgress } from "~analysis/engine"
import { BUNDLED_OCR_LANGUAGE, knownOcrLanguage, ocrLanguageListSchema, type OcrLanguageInfo, type OcrLanguageList } from "~core/ocr-languages"
import { getApiOrigin } from "~extension/api-origin"
import { extensionApi } from "~extension/extension-session"

export const LANGUAGES_UNAVAILABLE_MESSAGE = "More languages come from the Image Query AI service, which could not be reached. English works on this device."

const ENGLISH: OcrLanguageInfo = knownOcrLanguage(BUNDLED_OCR_LANGUAGE)!

/** What the picker shows: English, then the server's packs. */
export interface OcrLanguageChoices {
  status: "loading" | "ready" | "unavailable"
  languages: OcrLanguageInfo[]
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
  const [choices, setChoices] = useState<OcrLanguageChoices>({ status: "loading", languages: [ENGLISH] })
  useEffect(() => {
    let current = true
    fetchOcrLanguageList().then(
      (list) => current && setChoices({ status: "ready", languages: choicesFrom(list) }),
      () => current && setChoices({ status: "unavailable", languages: [ENGLISH] })
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
    const pack = list.languages.find((candidate) => candidate.code === code)
    if (!pack) throw new LanguagePackError(`The Image Query AI service no longer offers ${languageNames([code], [])}. Choose another language.`)
    await loadLanguagePack(pack, {
      apiOrigin,
      store: packStore,
      onProgress: (progress) => onProgress?.({ stage: packProgressText(pack, progress), fraction: progress.loadedBytes / progress.totalBytes })
    })
  }
}
