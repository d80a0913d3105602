/**
 * Translate images on this page in the side panel: the panel's parts for the loop (its OCR engine and result cache,
 * the lines' colours, the server, the device's cache, the page's messages), the one PageTranslations of the panel,
 * and the React side: what the panel shows, the tabs' loads, the badge's actions, the entry points' requests, the
 * settings. Closing the panel ends the mode: the pages are cleared as it goes.
 */
import { useEffect, useEffectEvent, useMemo, useRef, useSyncExternalStore } from "react"

import { DEFAULT_IMAGE_FILTER, filterImagesBySize } from "~core/images/image-size"
import { sitePageUrl } from "~extension/account/account"
import { apiOriginItem } from "~extension/site-link/api-origin"
import { listenForMessages, messageRoute } from "~extension/messaging/message-dispatch"
import { PAGE_TRANSLATION_ACTION, pageTranslationAction } from "~extension/messaging/page-translation-messages"
import { PENDING_PAGE_TRANSLATION_MAX_AGE_MS, pageTranslationRequestItem, type PageTranslationRequest } from "~extension/panel-handoff/page-translation-request"
import { pinnedPanelTab } from "~extension/browser/side-panel"
import { useStorageItem } from "~extension/storage/use-storage-item"

import { translationClients } from "../ai/ai-engines"
import { ocrSourceHint } from "../ai/device-translation"
import { usePlannedEngine } from "../ai/use-planned-engine"
import { imageBlob, runAnalysis } from "../analyses"
import { ORDER_REFRESH_MS, viewportDistances, whenTabQuiet } from "../find/page-places"
import { idlePeriod, whenDocumentShown, type ReadTarget } from "../find/read-loop"
import { toRasterBlob } from "../images/image-bytes"
import { sampleLineColours } from "../results/use-line-colours"
import type { PanelSettings } from "../settings/settings"
import type { ScanState } from "../images/use-page-scan"
import { SIGNED_OUT_TRANSLATE_IMAGES_MESSAGE } from "../chat/vqa-client"
import { sendTaken } from "./batches"
import { keepTranslation, keptTranslation } from "./device-cache"
import { imageText, isTranslatable, type ImageText } from "./image-lines"
import { clearPage, isActionFromTab, preparePage, sendPageState, showTranslation } from "./page-messages"
import { PageTranslations, type PartsFor } from "./page-translations"
import { alwaysTranslates, pageTranslationSettingsItem, siteOrigin, targetLanguageOf, withAlwaysTranslate, type PageTranslationSettings } from "./settings"
import type { TabTranslationParts } from "./tab-translation"

/** What the parts read at the time they run: the panel's latest settings, where to upgrade, who to tell of usage. */
const context: { settings: PanelSettings | null; upgradeUrl: string | undefined; onUsageChanged: () => void } = { settings: null, upgradeUrl: undefined, onUsageChanged: () => {} }

/** The image's lines to translate, read on this computer with the panel's OCR languages; null when it has none. */
async function readImageText(target: ReadTarget): Promise<ImageText | null> {
  if (!context.settings) throw new Error("The panel's settings are not loaded yet")
  const outcome = await runAnalysis({ kind: "text", image: target, settings: context.settings })
  // An image read turned on its side has its boxes in the turned image: they would not fall on the page's image.
  if (outcome.kind !== "text" || outcome.reading?.rotation) return null
  const ocr = { ...outcome.ocr, lines: outcome.ocr.lines.filter(isTranslatable) }
  if (!ocr.lines.length) return null
  const colours = await sampleLineColours(target, ocr, (location) => imageBlob(location).then(toRasterBlob))
  return imageText(target.url, ocr, colours)
}

const framesOf = (targets: readonly ReadTarget[]) => targets.map((target) => target.frameId ?? 0)

const partsFor: PartsFor = (tabId, language, targets): TabTranslationParts => ({
  targets,
  distances: (unread) => viewportDistances(tabId, framesOf(unread)),
  whenShown: whenDocumentShown,
  pageQuiet: (signal) => whenTabQuiet(tabId, () => framesOf(targets()), signal),
  idle: idlePeriod,
  orderRefreshMs: ORDER_REFRESH_MS,
  kept: (url) => keptTranslation(url, language),
  read: readImageText,
  send: (taken) =>
    sendTaken(taken, language, translationClients(context.settings?.translationEngine ?? "auto", ocrSourceHint(context.settings?.ocrLanguages ?? []))).finally(() => {
      // The month's usage moved (or the quota ran out): the header says it again.
      context.onUsageChanged()
    }),
  keep: (url, translation) => void keepTranslation(url, language, translation),
  prepare: () => preparePage(tabId),
  show: (target, translation) => void showTranslation(tabId, target, translation),
  state: (state) => sendPageState(tabId, state),
  clear: () => clearPage(tabId),
  signedOutMessage: SIGNED_OUT_TRANSLATE_IMAGES_MESSAGE,
  upgradeUrl: () => context.upgradeUrl
})

const translations = new PageTranslations(partsFor, targetLanguageOf({ alwaysOrigins: [] }))

/** The images the panel lists by default (the size rule of the Images section's default filter), as the loop reads them. */
export function defaultTargets(tabId: number, images: readonly { url: string; frameId: number; width: number; height: number }[], pageUrl?: string): ReadTarget[] {
  return filterImagesBySize(images, DEFAULT_IMAGE_FILTER).map(({ url, frameId }) => ({ url, tabId, frameId, pageUrl }))
}

/** Whether a request from an entry point is for this panel: the one of the tab's window, or the one pinned to the tab. */
async function isForThisPanel(request: PageTranslationRequest): Promise<boolean> {
  const pinned = pinnedPanelTab()
  if (pinned !== undefined) return pinned === request.tabId
  const window = await chrome.windows.getCurrent().catch(() => undefined)
  return window?.id === request.windowId
}

export interface PageTranslationOptions {
  scan: ScanState
  /** The panel's settings (OCR languages); undefined until loaded. */
  settings: PanelSettings | undefined
  /** Shows another tab's page in the panel (a request for a tab the panel does not show). */
  scanAndShow: (tabId?: number) => Promise<ScanState>
  onUsageChanged: () => void
}

export function usePageTranslation({ scan, settings, scanAndShow, onUsageChanged }: PageTranslationOptions) {
  const [stored, saveStored] = useStorageItem(pageTranslationSettingsItem)
  const [apiOrigin] = useStorageItem(apiOriginItem)
  const pageSettings: PageTranslationSettings = useMemo(() => stored ?? { alwaysOrigins: [] }, [stored])
  const language = targetLanguageOf(pageSettings)
  const ready = scan.kind === "ready" ? scan : undefined
  const tabId = ready?.tabId
  const view = useSyncExternalStore(translations.subscribe, () => translations.viewOf(tabId))

  useEffect(() => {
    context.settings = settings ?? null
    context.onUsageChanged = onUsageChanged
    context.upgradeUrl = apiOrigin ? sitePageUrl(apiOrigin, "/pricing") : undefined
  })
  useEffect(() => translations.setLanguage(language), [language])
  // Nothing turns on by itself before the settings are read: the list of sites is in them.
  useEffect(() => {
    if (stored) translations.setAlwaysOrigins(stored.alwaysOrigins)
  }, [stored])
  useEffect(() => {
    translations.pageShown(ready ? { tabId: ready.tabId, pageUrl: ready.pageUrl, targets: defaultTargets(ready.tabId, ready.images, ready.pageUrl) } : null)
  }, [ready])

  // Loads and closed tabs; the badge's actions; the panel going away.
  useEffect(() => {
    const onUpdated = (updatedTabId: number, change: { status?: string }) => {
      if (change.status === "complete") translations.pageLoaded(updatedTabId)
    }
    const onRemoved = (removedTabId: number) => translations.tabClosed(removedTabId)
    const stopListening = listenForMessages(chrome.runtime.onMessage, {
      [PAGE_TRANSLATION_ACTION]: messageRoute({
        from: isActionFromTab,
        check: pageTranslationAction.parse,
        handle: ({ message }, sender) => translations.action(sender.tab!.id!, message.action)
      })
    })
    // Closing the panel stops the mode: the pages are told while the panel still can.
    const clearAll = () => translations.tabsOn().forEach(clearPage)
    chrome.tabs.onUpdated.addListener(onUpdated)
    chrome.tabs.onRemoved.addListener(onRemoved)
    window.addEventListener("pagehide", clearAll)
    return () => {
      chrome.tabs.onUpdated.removeListener(onUpdated)
      chrome.tabs.onRemoved.removeListener(onRemoved)
      stopListening()
      window.removeEventListener("pagehide", clearAll)
    }
  }, [])

  // The entry points' requests: the one waiting when the panel starts, then each later one, each acted on once.
  const lastTaken = useRef(0)
  const take = useEffectEvent(async (request: PageTranslationRequest | null) => {
    if (!request || request.requestedAt <= lastTaken.current || !(await isForThisPanel(request))) return
    lastTaken.current = request.requestedAt
    void pageTranslationRequestItem.remove()
    if (request.tabId !== tabId) await scanAndShow(request.tabId)
    if (request.action === "on") translations.turnOn(request.tabId)
    else translations.toggle(request.tabId)
  })
  useEffect(() => {
    void pageTranslationRequestItem.get().then((request) => {
      if (request && Date.now() - request.requestedAt < PENDING_PAGE_TRANSLATION_MAX_AGE_MS) void take(request)
    })
    return pageTranslationRequestItem.watch((request) => void take(request))
  }, [])

  const origin = siteOrigin(ready?.pageUrl)
  const choice = settings?.translationEngine ?? "auto"
  // Whether the browser's translator would take the page's text, as far as can be told before any is read.
  const planned = usePlannedEngine("translation", choice, { text: "", targetLanguage: language, sourceHint: ocrSourceHint(settings?.ocrLanguages ?? []) })
  return {
    view,
    language,
    /** The cost line: the device translates (`fallback`: under *Automatic*, what it cannot goes to our service). */
    onDevice: planned === "device" ? { fallback: choice === "auto" } : null,
    setLanguage: (targetLanguage: string) => void saveStored({ ...pageSettings, targetLanguage }),
    /** The page's site, for *Always translate images on this site* (null: not a web site). */
    origin,
    always: alwaysTranslates(pageSettings, ready?.pageUrl),
    setAlways: (always: boolean) => {
      if (!origin) return
      void saveStored(withAlwaysTranslate(pageSettings, origin, always))
      // Ticked: this page too, now.
      if (always && tabId !== undefined) translations.turnOn(tabId)
    },
    toggle: () => tabId !== undefined && translations.toggle(tabId),
    turnOff: () => tabId !== undefined && translations.turnOff(tabId),
    stop: () => tabId !== undefined && translations.stop(tabId),
    resume: () => tabId !== undefined && translations.resume(tabId)
  }
}

export type PageTranslationControls = ReturnType<typeof usePageTranslation>
