/**
 * The site's end of the extension → site direction: a long-lived port to the extension (see
 * src/background/site-link.ts) on which the extension sends EXTENSION_AUTH_STATUS_REQUEST and
 * EXTENSION_LOGOUT_REQUEST. Each request goes to handleExtensionMessage and its answer goes back on the port.
 *
 * The extension's service worker stops when idle, which closes the port; the link reconnects (waking it) after
 * RECONNECT_MIN_MS, backing off to RECONNECT_MAX_MS while connecting keeps failing (no extension installed, or
 * another one under that id), so a page without the extension costs a few calls an hour at most.
 */
import { SITE_LINK_PORT_NAME } from "~core/extension-messages"

import { resolveExtensionConnector, type ExtensionPort } from "./extension-notifier"
import { handleExtensionMessage } from "./extension-answers"

export const RECONNECT_MIN_MS = 1_000
export const RECONNECT_MAX_MS = 5 * 60_000
/** A port that stayed open this long was a working link: the next reconnect starts from the minimum again. */
export const STABLE_LINK_MS = 10_000

export interface ExtensionLinkOptions {
  connect?: () => ExtensionPort
  setTimer?: (callback: () => void, ms: number) => unknown
  clearTimer?: (timer: unknown) => void
  now?: () => number
}

/** Connects to the extension and keeps the link up until the returned function is called. */
export function connectExtensionLink(options: ExtensionLinkOptions = {}): () => void {
  const connect = options.connect ?? resolveExtensionConnector(SITE_LINK_PORT_NAME)
  if (!connect) return () => {}
  const setTimer = options.setTimer ?? ((callback: () => void, ms: number) => setTimeout(callback, ms))
  const clearTimer = options.clearTimer ?? ((timer: unknown) => clearTimeout(timer as ReturnType<typeof setTimeout>))
  const now = options.now ?? Date.now

  let stopped = false
  let port: ExtensionPort | null = null
  let timer: unknown = null
  let delay = RECONNECT_MIN_MS

  const scheduleReconnect = () => {
    if (stopped) return
    timer = setTimer(() => {
      timer = null
      open()
    }, delay)
    delay = Math.min(delay * 2, RECONNECT_MAX_MS)
  }

  function open() {
    if (stopped) return
    const openedAt = now()
    let current: ExtensionPort
    try {
      current = connect!()
    } catch {
      scheduleReconnect()
      return
    }
    port = current
    // Requests are handled one after another, so the answers go back in the order the requests came.
    let answered: Promise<unknown> = Promise.resolve()
    current.onMessage.addListener((message) => {
      answered = answered
        .then(() => handleExtensionMessage(message))
        .then((answer) => {
          if (port === current) current.postMessage(answer)
        })
    })
    current.onDisconnect.addListener(() => {
      // Reading lastError marks it handled; Chrome logs an "Unchecked runtime.lastError" otherwise.
      void (globalThis as { chrome?: { runtime?: { lastError?: unknown } } }).chrome?.runtime?.lastError
      if (port !== current) return
      port = null
      if (now() - openedAt >= STABLE_LINK_MS) delay = RECONNECT_MIN_MS
      scheduleReconnect()
    })
  }

  open()
  return () => {
    stopped = true
    if (timer !== null) clearTimer(timer)
    const open = port
    port = null
    open?.disconnect()
  }
}
