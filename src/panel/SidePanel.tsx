import { useCallback, useEffect, useRef, useState } from "react"

import { DEFAULT_IMAGE_FILTER } from "~core/image-size"
import { pageImagesChanged } from "~extension/messages"
import { loadAccount, type AccountState } from "~extension/account"
import { getActiveTab } from "~extension/active-tab"
import { API_ORIGIN_STORAGE_KEY, getApiOrigin } from "~extension/api-origin"
import { watchExtensionSession } from "~extension/extension-session"
import { selectedImageItem, type SelectedImage } from "~extension/selected-image"
import { Logo } from "~ui/Logo"
import { Spinner } from "~ui/Spinner"

import { runAnalysis, describe, summarise } from "./analyses"
import { ChatTab, chatHistoryFor, MAX_CHAT_IMAGES, type ChatMessage } from "./ChatTab"
import { addToHistory, clearHistory, HISTORY_KEY, loadHistory, type HistoryEntry } from "./history"
import { HistoryTab } from "./HistoryTab"
import { ImageDetail } from "./ImageDetail"
import { ImagesTab, type ImageFilters } from "./ImagesTab"
import { collectTabImages, type PanelImage } from "./tab-images"
import { DEFAULT_PANEL_SETTINGS, loadPanelSettings, PANEL_SETTINGS_KEY, parsePanelSettings, savePanelSettings, type AnalysisKind, type PanelSettings } from "./settings"
import { SettingsTab } from "./SettingsTab"
import { TabBar, tabId, tabPanelId, type PanelTab } from "./TabBar"

/** Content scripts announce changes at most once a second; the panel rescans at most this often. */
const RESCAN_AFTER_CHANGE_MS = 300
/** An image picked from the page this long before the panel opened is still the one to show. */
const PENDING_SELECTION_MAX_AGE_MS = 60_000

type ScanState =
  | { kind: "loading" }
  | { kind: "unavailable" }
  | { kind: "ready"; tabId: number; images: PanelImage[]; pageTitle: string; pageUrl?: string }

type FocusedImage = { image: PanelImage & { tabId?: number; pageUrl?: string }; autoRun: AnalysisKind | null; token: number }


async function scanTab(tabId?: number): Promise<ScanState> {
  const tab = tabId === undefined ? await getActiveTab() : await chrome.tabs.get(tabId).catch(() => undefined)
  if (tab?.id === undefined) return { kind: "unavailable" }
  const images = await collectTabImages(tab.id)
  return images ? { kind: "ready", tabId: tab.id, images, pageTitle: tab.title ?? "", pageUrl: tab.url } : { kind: "unavailable" }
}

export function SidePanel() {
  const [tab, setTab] = useState<PanelTab>("images")
  const [scan, setScan] = useState<ScanState>({ kind: "loading" })
  const [filters, setFilters] = useState<ImageFilters>({ ...DEFAULT_IMAGE_FILTER, type: "any" })
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set())
  const [focused, setFocusedImage] = useState<FocusedImage | null>(null)
  // The image last shown in detail stays marked in the grid, so the user sees where they were.
  const [lastOpened, setLastOpened] = useState<string | null>(null)
  const setFocused = useCallback((next: FocusedImage | null) => {
    setFocusedImage(next)
    if (next) setLastOpened(next.image.url)
  }, [])
  const [settings, setSettings] = useState<PanelSettings>(DEFAULT_PANEL_SETTINGS)
  const [apiOrigin, setApiOrigin] = useState<string | null>(null)
  const [account, setAccount] = useState<AccountState>({ kind: "checking" })
  const [history, setHistory] = useState<HistoryEntry[]>([])
  const [chat, setChat] = useState<ChatMessage[]>([])
  const [chatBusy, setChatBusy] = useState(false)
  const scannedTab = useRef<number | undefined>(undefined)
  const settingsRef = useRef(settings)
  const lastSelection = useRef(0)
  const messageIds = useRef(0)

  const rescan = useCallback((tabId?: number) => {
    void scanTab(tabId).then((next) => {
      scannedTab.current = next.kind === "ready" ? next.tabId : undefined
      setScan(next)
    })
  }, [])

  const reloadAccount = useCallback(() => {
    void loadAccount().then(setAccount)
  }, [])

  const takeSelection = useCallback(
    (selection: SelectedImage | null) => {
      if (!selection || selection.selectedAt <= lastSelection.current) return
      lastSelection.current = selection.selectedAt
      const defaultAnalysis = settingsRef.current.defaultAnalysis
      void scanTab(selection.tabId).then((next) => {
        scannedTab.current = next.kind === "ready" ? next.tabId : undefined
        setScan(next)
        const listed = next.kind === "ready" ? next.images.find((image) => image.url === selection.url) : undefined
        const image = listed ?? { url: selection.url, width: 0, height: 0, renderedWidth: 0, renderedHeight: 0, alt: "", source: "img" as const, frameId: 0 }
        setTab("images")
        setFocused({ image: { ...image, tabId: selection.tabId, pageUrl: selection.pageUrl }, autoRun: defaultAnalysis === "none" ? null : defaultAnalysis, token: selection.selectedAt })
      })
    },
    [setFocused]
  )

  useEffect(() => {
    document.title = "Image Query AI"
    void loadPanelSettings().then((loaded) => {
      settingsRef.current = loaded
      setSettings(loaded)
      // The image picked before the panel opened (the menu stores it as the panel starts).
      void selectedImageItem.get().then((selection) => {
        if (selection && Date.now() - selection.selectedAt < PENDING_SELECTION_MAX_AGE_MS) takeSelection(selection)
        else rescan()
      })
    })
    void getApiOrigin().then(setApiOrigin)
    void loadHistory().then(setHistory)
    reloadAccount()

    let changeTimer: ReturnType<typeof setTimeout> | undefined
    const onMessage = (message: unknown, sender: chrome.runtime.MessageSender) => {
      if (!pageImagesChanged.is(message) || sender.tab?.id === undefined || sender.tab.id !== scannedTab.current) return
      clearTimeout(changeTimer)
      changeTimer = setTimeout(() => rescan(scannedTab.current), RESCAN_AFTER_CHANGE_MS)
    }
    const onActivated = () => {
      setFocused(null)
      setSelected(new Set())
      rescan()
    }
    const onUpdated = (updatedTabId: number, change: { status?: string }) => {
      if (updatedTabId === scannedTab.current && change.status === "complete") rescan(updatedTabId)
    }
    const onStorage = (changes: Record<string, chrome.storage.StorageChange>, area: string) => {
      if (area === "local" && HISTORY_KEY in changes) void loadHistory().then(setHistory)
      if (area === "local" && PANEL_SETTINGS_KEY in changes) {
        const next = parsePanelSettings(changes[PANEL_SETTINGS_KEY]?.newValue)
        settingsRef.current = next
        setSettings(next)
      }
      if (area === "local" && API_ORIGIN_STORAGE_KEY in changes) void getApiOrigin().then(setApiOrigin)
    }
    chrome.runtime.onMessage.addListener(onMessage)
    chrome.tabs.onActivated.addListener(onActivated)
    chrome.tabs.onUpdated.addListener(onUpdated)
    chrome.storage.onChanged.addListener(onStorage)
    const stopWatching = watchExtensionSession(reloadAccount)
    const stopSelection = selectedImageItem.watch(takeSelection)
    return () => {
      clearTimeout(changeTimer)
      chrome.runtime.onMessage.removeListener(onMessage)
      chrome.tabs.onActivated.removeListener(onActivated)
      chrome.tabs.onUpdated.removeListener(onUpdated)
      chrome.storage.onChanged.removeListener(onStorage)
      stopWatching()
      stopSelection()
    }
  }, [rescan, reloadAccount, takeSelection, setFocused])

  const openSite = (path: string) => {
    if (apiOrigin) void chrome.tabs.create({ url: `${apiOrigin}${path}` })
  }
  const signIn = () => openSite("/login?source=extension")

  const changeSettings = (next: PanelSettings) => {
    settingsRef.current = next
    setSettings(next)
    void savePanelSettings(next)
  }

  const images = scan.kind === "ready" ? scan.images : []
  const selectedImages = images.filter((image) => selected.has(image.url))

  const sendChat = (question: string) => {
    const targets = selectedImages.slice(0, MAX_CHAT_IMAGES)
    const earlier = chat
    const nextId = () => ++messageIds.current
    setChat((messages) => [...messages, { id: nextId(), role: "user", text: question }])
    setChatBusy(true)
    void (async () => {
      for (const image of targets) {
        try {
          const outcome = await runAnalysis({
            kind: "ask",
            image: { url: image.url, tabId: scannedTab.current, frameId: image.frameId },
            settings: settingsRef.current,
            question,
            history: chatHistoryFor(earlier, image.url)
          })
          setChat((messages) => [...messages, { id: nextId(), role: "assistant", text: describe(outcome), imageUrl: image.url, question }])
          void addToHistory({ kind: "ask", imageUrl: image.url, pageUrl: scan.kind === "ready" ? scan.pageUrl : undefined, question, summary: summarise(outcome), detail: describe(outcome) })
        } catch (error) {
          setChat((messages) => [...messages, { id: nextId(), role: "error", text: error instanceof Error ? error.message : "The question could not be asked.", imageUrl: image.url }])
          break
        }
      }
      setChatBusy(false)
      reloadAccount()
    })()
  }

  return (
    <div className="min-h-screen bg-gray-50 pb-16 font-sans text-brand-secondary">
      <header className="sticky top-0 z-10 space-y-1 border-b border-gray-200 bg-white px-4 py-3">
        <div className="flex items-center justify-between">
          <Logo />
          <button
            type="button"
            onClick={() => {
              setScan({ kind: "loading" })
              rescan(scannedTab.current)
            }}
            className="rounded-md px-2 py-1 text-sm font-medium text-blue-700 hover:bg-blue-50 focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-primary"
          >
            Rescan
          </button>
        </div>
        <div className="flex items-center justify-between gap-2 text-xs text-gray-600" data-testid="panel-account">
          {account.kind === "checking" && <span>Checking your account…</span>}
          {account.kind === "signedOut" && (
            <>
              <span>Not signed in: local analyses only.</span>
              <button type="button" onClick={signIn} className="font-semibold text-blue-700 hover:underline focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-primary">
                Sign in
              </button>
            </>
          )}
          {account.kind === "signedIn" && (
            <span data-testid="panel-usage">
              {account.user.name} · {account.usage ?? "Usage unavailable"}
            </span>
          )}
        </div>
      </header>

      <main className="p-4" id={tabPanelId(tab)} role="tabpanel" aria-labelledby={tabId(tab)}>
        {tab === "images" &&
          (focused ? (
            <ImageDetail key={`${focused.image.url}|${focused.token}`} image={focused.image} settings={settings} autoRun={focused.autoRun} onBack={() => setFocused(null)} onUsageChanged={reloadAccount} onSignIn={signIn} />
          ) : scan.kind === "loading" ? (
            <Spinner label="Finding images" />
          ) : scan.kind === "unavailable" ? (
            <p className="rounded-lg bg-white p-4 text-sm text-gray-600 shadow-sm">This page cannot be scanned. Open a regular web page and press Rescan.</p>
          ) : (
            <ImagesTab
              images={scan.images}
              filters={filters}
              onFiltersChange={setFilters}
              selected={selected}
              onToggleSelected={(url) =>
                setSelected((current) => {
                  const next = new Set(current)
                  if (!next.delete(url)) next.add(url)
                  return next
                })
              }
              onClearSelection={() => setSelected(new Set())}
              onOpen={(image) => setFocused({ image: { ...image, tabId: scan.tabId, pageUrl: scan.pageUrl }, autoRun: null, token: Date.now() })}
              highlighted={lastOpened}
            />
          ))}
        {tab === "chat" && <ChatTab images={selectedImages} messages={chat} busy={chatBusy} onSend={sendChat} onClear={() => setChat([])} usage={account.kind === "signedIn" ? account.usage : null} />}
        {tab === "history" && <HistoryTab entries={history} onClear={() => void clearHistory().then(() => setHistory([]))} />}
        {tab === "settings" && apiOrigin !== null && (
          <SettingsTab settings={settings} onChange={changeSettings} apiOrigin={apiOrigin} onApiOriginChange={(origin) => chrome.storage.local.set({ [API_ORIGIN_STORAGE_KEY]: origin })} />
        )}
      </main>
      <TabBar current={tab} onChange={setTab} />
    </div>
  )
}
