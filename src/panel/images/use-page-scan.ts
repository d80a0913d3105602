import { useCallback, useEffect, useEffectEvent, useRef, useState } from "react"

import { getActiveTab } from "~extension/browser/active-tab"
import { listenForMessages, messageRoute } from "~extension/messaging/message-dispatch"
import { isOurContentScript } from "~extension/messaging/message-senders"
import { PAGE_IMAGES_CHANGED, pageImagesChanged } from "~extension/messaging/messages"

import { collectTabImages, type PanelImage } from "./tab-images"

/** Content scripts announce changes at most once a second; the panel rescans at most this often. */
const RESCAN_AFTER_CHANGE_MS = 300

export type ScanState =
  | { kind: "loading" }
  | { kind: "unavailable" }
  | { kind: "ready"; tabId: number; images: PanelImage[]; pageTitle: string; pageUrl?: string }

/** What a scan found, and the tab it scanned (when there is one, whether or not its page could be scanned). */
async function scanTab(tabId?: number): Promise<{ state: ScanState; tabId?: number }> {
  const tab = tabId === undefined ? await getActiveTab() : await chrome.tabs.get(tabId).catch(() => undefined)
  if (tab?.id === undefined) return { state: { kind: "unavailable" } }
  const images = await collectTabImages(tab.id)
  return { state: images ? { kind: "ready", tabId: tab.id, images, pageTitle: tab.title ?? "", pageUrl: tab.url } : { kind: "unavailable" }, tabId: tab.id }
}

/**
 * The images of the tab the panel shows. It scans when asked, again when that page announces changes or finishes
 * loading, and scans the newly active tab when the user switches tabs (after `onTabSwitched`).
 */
export function usePageScan({ onTabSwitched }: { onTabSwitched: () => void }) {
  const [scan, setScan] = useState<ScanState>({ kind: "loading" })
  const scannedTab = useRef<number | undefined>(undefined)

  /** Scans a tab (the active one by default) and shows it; resolves to what was found. */
  const scanAndShow = useCallback(async (tabId?: number): Promise<ScanState> => {
    const { state: next, tabId: scanned } = await scanTab(tabId)
    // A page that could not be scanned is still this tab's: its next load scans it again (a scan that met the tab
    // between two documents would otherwise leave the panel at "cannot be scanned" until Rescan).
    scannedTab.current = scanned
    setScan(next)
    return next
  }, [])

  /** The Rescan button: the same tab again, showing the spinner meanwhile. */
  const rescan = useCallback(() => {
    setScan({ kind: "loading" })
    void scanAndShow(scannedTab.current)
  }, [scanAndShow])

  const tabSwitched = useEffectEvent(() => {
    onTabSwitched()
    void scanAndShow()
  })

  useEffect(() => {
    let changeTimer: ReturnType<typeof setTimeout> | undefined
    const stopListening = listenForMessages(chrome.runtime.onMessage, {
      [PAGE_IMAGES_CHANGED]: messageRoute({
        from: isOurContentScript,
        check: pageImagesChanged.parse,
        handle(_changed, sender) {
          if (sender.tab?.id !== scannedTab.current) return
          clearTimeout(changeTimer)
          changeTimer = setTimeout(() => void scanAndShow(scannedTab.current), RESCAN_AFTER_CHANGE_MS)
        }
      })
    })
    const onActivated = () => tabSwitched()
    const onUpdated = (updatedTabId: number, change: { status?: string }) => {
      if (updatedTabId === scannedTab.current && change.status === "complete") void scanAndShow(updatedTabId)
    }
    chrome.tabs.onActivated.addListener(onActivated)
    chrome.tabs.onUpdated.addListener(onUpdated)
    return () => {
      clearTimeout(changeTimer)
      stopListening()
      chrome.tabs.onActivated.removeListener(onActivated)
      chrome.tabs.onUpdated.removeListener(onUpdated)
    }
  }, [scanAndShow])

  return { scan, scanAndShow, rescan }
}
