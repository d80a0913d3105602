/**
 * The words of the page translation on the page: what the badge says and offers, from the mode's state
 * (PAGE_TRANSLATION_STATE), and the name each image's translation has for assistive technology.
 */
import type { PageTranslationActionKind, PageTranslationState } from "../messaging/page-translation-messages"

export const STOP_LABEL = "Stop"
export const SHOW_ORIGINALS_LABEL = "Show originals"
export const SHOW_TRANSLATIONS_LABEL = "Show translations"
export const UPGRADE_LABEL = "Upgrade"
/** The badge's name for assistive technology. */
export const BADGE_LABEL = "Image translation"

const QUOTA_FALLBACK = "This month's AI requests are used up, so the other images stay as they are."
const ERROR_FALLBACK = "The images could not be translated."

export type BadgeState = Pick<PageTranslationState, "status" | "done" | "total" | "showing"> & { message?: string; upgradeUrl?: string }

/** The badge's sentence. */
export function badgeText({ status, done, total, message }: BadgeState): string {
  switch (status) {
    case "translating":
      return `Translating images: ${done} of ${total}`
    case "done":
      return `Images translated: ${done}`
    case "stopped":
      return `Translation stopped: ${done} of ${total}`
    case "quota":
      return message || QUOTA_FALLBACK
    case "error":
      return message || ERROR_FALLBACK
  }
}

export interface BadgeButton {
  action: PageTranslationActionKind
  label: string
}

/** Stop while translating; the originals or the translations, whichever is not shown, once an image is translated. */
export function badgeButtons({ status, done, showing }: BadgeState): BadgeButton[] {
  const buttons: BadgeButton[] = []
  if (status === "translating") buttons.push({ action: "stop", label: STOP_LABEL })
  if (done > 0) buttons.push(showing ? { action: "show-originals", label: SHOW_ORIGINALS_LABEL } : { action: "show-translations", label: SHOW_TRANSLATIONS_LABEL })
  return buttons
}

/** The Upgrade link's address, when the state gives one that is a web address (never a script's). */
export function upgradeHref({ status, upgradeUrl }: BadgeState): string | null {
  if (status !== "quota" || !upgradeUrl) return null
  try {
    const url = new URL(upgradeUrl)
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : null
  } catch {
    return null
  }
}

/** The language's name in English (the extension's words are English), or its tag when the browser has no name for it. */
function languageName(tag: string): string {
  try {
    return new Intl.DisplayNames(["en"], { type: "language" }).of(tag) ?? tag
  } catch {
    return tag
  }
}

/** The name of an image's translation for assistive technology: the language, and the image's own text alternative. */
export function overlayLabel(element: Element, language: string): string {
  const name = ["alt", "aria-label", "title"].map((attribute) => element.getAttribute(attribute)?.trim()).find(Boolean)
  const said = `Image translated into ${languageName(language)}`
  return name ? `${said}: ${name}` : said
}
