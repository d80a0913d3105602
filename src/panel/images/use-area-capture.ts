import { useEffect, useEffectEvent, useRef, useState } from "react"

import { areaCaptureItem, CAPTURE_NOT_ALLOWED_MESSAGE, CAPTURED_AREA_NAME, type AreaCapture } from "~extension/capture/area-capture"
import {
  CANCEL_AREA_CAPTURE,
  CAPTURE_WHOLE_VIEW,
  START_AREA_CAPTURE,
  type CancelAreaCapture,
  type CaptureWholeView,
  type StartAreaCapture
} from "~extension/messaging/messages"

import type { PanelImage } from "./tab-images"
import type { PanelSettings } from "../settings/settings"
import type { FocusedImage } from "./use-focused-image"
import { localAutoRun } from "./use-pasted-image"

/** A capture's outcome this long before the panel opened is still shown (the command opens the panel as it starts). */
export const PENDING_CAPTURE_MAX_AGE_MS = 60_000

export type CapturedImage = PanelImage & { tabId: number; pageUrl?: string }

export type AreaCaptureStatus = { kind: "idle" } | { kind: "selecting"; tabId: number } | { kind: "refused"; message: string }

/** The tab the panel's window shows: what captureVisibleTab takes when the panel has no page of its own yet. */
async function activeTabOfThisWindow(): Promise<number | undefined> {
  const window = await chrome.windows.getCurrent().catch(() => undefined)
  if (window?.id === undefined) return undefined
  const [tab] = await chrome.tabs.query({ active: true, windowId: window.id })
  return tab?.id
}

export interface AreaCaptureOptions {
  /** Nothing happens until the settings are loaded: a capture runs the default analysis when it is a local one. */
  settings: PanelSettings | undefined
  /** The page the panel shows, if any. */
  tabId: number | undefined
  onCaptured: (focused: FocusedImage & { image: CapturedImage }) => void
}

/**
 * "Capture area": asks the service worker for the overlay on the page and follows the capture's state, wherever it
 * was started (this button, the keyboard command, the page's menu). A captured area opens like a pasted image, from
 * a blob: URL of the panel's own. Escape in the panel cancels too: after the button's click the keyboard is here.
 */
export function useAreaCapture({ settings, tabId, onCaptured }: AreaCaptureOptions) {
  const [status, setStatus] = useState<AreaCaptureStatus>({ kind: "idle" })
  const lastTaken = useRef(0)

  const take = useEffectEvent(async (capture: AreaCapture | null) => {
    if (!capture || !settings || capture.at <= lastTaken.current) return
    lastTaken.current = capture.at
    if (capture.state === "selecting") setStatus({ kind: "selecting", tabId: capture.tabId })
    else if (capture.state === "refused") setStatus({ kind: "refused", message: capture.message })
    else if (capture.state === "cancelled") setStatus({ kind: "idle" })
    else {
      const url = URL.createObjectURL(await (await fetch(capture.dataUrl)).blob())
      const { width, height } = capture
      setStatus({ kind: "idle" })
      onCaptured({
        image: { url, width, height, renderedWidth: width, renderedHeight: height, alt: CAPTURED_AREA_NAME, source: "captured", mimeType: capture.dataUrl.slice(5, capture.dataUrl.indexOf(";")), frameId: 0, tabId: capture.tabId, pageUrl: capture.pageUrl },
        autoRun: localAutoRun(settings),
        token: capture.at
      })
    }
  })

  const follow = useEffectEvent(() => {
    void areaCaptureItem.get().then((capture) => {
      if (capture && Date.now() - capture.at < PENDING_CAPTURE_MAX_AGE_MS) void take(capture)
    })
    return areaCaptureItem.watch((capture) => void take(capture))
  })

  const settingsLoaded = settings !== undefined
  useEffect(() => {
    if (settingsLoaded) return follow()
  }, [settingsLoaded])

  const start = async () => {
    const target = tabId ?? (await activeTabOfThisWindow())
    if (target === undefined) {
      setStatus({ kind: "refused", message: CAPTURE_NOT_ALLOWED_MESSAGE })
      return
    }
    const request: StartAreaCapture = { type: START_AREA_CAPTURE, tabId: target }
    await chrome.runtime.sendMessage(request)
  }

  const cancel = () => {
    if (status.kind !== "selecting") return
    setStatus({ kind: "idle" })
    const request: CancelAreaCapture = { type: CANCEL_AREA_CAPTURE, tabId: status.tabId }
    void chrome.runtime.sendMessage(request)
  }
  const wholeView = () => {
    if (status.kind !== "selecting") return
    const request: CaptureWholeView = { type: CAPTURE_WHOLE_VIEW, tabId: status.tabId }
    void chrome.runtime.sendMessage(request)
  }
  const cancelOnEscape = useEffectEvent((event: KeyboardEvent) => {
    if (event.key === "Escape") cancel()
  })

  const selecting = status.kind === "selecting"
  useEffect(() => {
    if (!selecting) return
    const onKey = (event: KeyboardEvent) => cancelOnEscape(event)
    document.addEventListener("keydown", onKey)
    return () => document.removeEventListener("keydown", onKey)
  }, [selecting])

  return { status, start: () => void start(), cancel, wholeView, dismiss: () => setStatus({ kind: "idle" }) }
}
