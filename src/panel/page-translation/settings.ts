/**
 * The settings of Translate images on this page, kept in chrome.storage.local: the language the images are
 * translated into (the browser's language until one is chosen; remembered), and the sites whose images are always
 * translated (*Always translate images on this site*, per origin, listed and removable in Settings).
 */
import * as z from "zod"

import { translateLanguage } from "~core/analysis/translate"
import { storageItem } from "~extension/storage/storage-item"

import { defaultTargetLanguage } from "../results/TranslateText"

export interface PageTranslationSettings {
  /** A code of TRANSLATE_LANGUAGES; none: the browser's language. */
  targetLanguage?: string
  /** Origins ("https://manga.example") whose pages turn the mode on by themselves. */
  alwaysOrigins: string[]
}

/** The origin of an http or https page: the unit *Always translate* is kept by; null for other pages. */
export function siteOrigin(pageUrl: string | undefined): string | null {
  if (!pageUrl) return null
  try {
    const url = new URL(pageUrl)
    return url.protocol === "http:" || url.protocol === "https:" ? url.origin : null
  } catch {
    return null
  }
}

const settingsSchema = z.object({
  targetLanguage: z
    .string()
    .refine((code) => translateLanguage(code)?.code === code)
    .optional()
    .catch(undefined),
  // Each origin checked alone: one bad entry does not lose the others.
  alwaysOrigins: z
    .array(z.unknown())
    .transform((origins) => [...new Set(origins.filter((origin): origin is string => typeof origin === "string" && siteOrigin(origin) === origin))])
    .catch([])
})

export const pageTranslationSettingsItem = storageItem<PageTranslationSettings>({
  key: "pageTranslation",
  schema: settingsSchema,
  fallback: { alwaysOrigins: [] }
})

/** The language images are translated into. */
export const targetLanguageOf = (settings: PageTranslationSettings, browserLanguages?: readonly string[]): string => settings.targetLanguage ?? defaultTargetLanguage(browserLanguages)

export const alwaysTranslates = (settings: PageTranslationSettings, pageUrl: string | undefined): boolean => {
  const origin = siteOrigin(pageUrl)
  return origin !== null && settings.alwaysOrigins.includes(origin)
}

/** The settings with `origin` listed (or not) for *Always translate images on this site*. */
export function withAlwaysTranslate(settings: PageTranslationSettings, origin: string, always: boolean): PageTranslationSettings {
  const others = settings.alwaysOrigins.filter((listed) => listed !== origin)
  return { ...settings, alwaysOrigins: always ? [...others, origin] : others }
}
