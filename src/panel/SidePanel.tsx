import { useEffect, useState } from "react"

import { DEFAULT_IMAGE_FILTER } from "~core/image-size"
import { apiOriginItem } from "~extension/api-origin"
import { changeApiOrigin } from "~extension/extension-session"
import { useAccount } from "~extension/use-account"
import { useStorageItem } from "~extension/use-storage-item"
import { Logo } from "~ui/Logo"
import { Spinner } from "~ui/Spinner"

import { ChatTab } from "./ChatTab"
import { clearHistory, historyItem } from "./history"
import { HistoryTab } from "./HistoryTab"
import { ImageDetail } from "./ImageDetail"
import { ImagesTab, type ImageFilters } from "./ImagesTab"
import { DEFAULT_PANEL_SETTINGS, panelSettingsItem } from "./settings"
import { SettingsTab } from "./SettingsTab"
import { TabBar, tabId, tabPanelId, type PanelTab } from "./TabBar"
import { useAreaCapture, type CapturedImage } from "./use-area-capture"
import { useChat } from "./use-chat"
import { useFocusedImage } from "./use-focused-image"
import { usePageScan } from "./use-page-scan"
import { usePastedImage } from "./use-pasted-image"
import { usePickedImage } from "./use-picked-image"
import { useTickedImages } from "./use-ticked-images"

export function SidePanel() {
  const [tab, setTab] = useState<PanelTab>("images")
  const [filters, setFilters] = useState<ImageFilters>({ ...DEFAULT_IMAGE_FILTER, type: "any" })
  const [storedSettings, saveSettings] = useStorageItem(panelSettingsItem)
  const settings = storedSettings ?? DEFAULT_PANEL_SETTINGS
  const [apiOrigin] = useStorageItem(apiOriginItem)
  const [history] = useStorageItem(historyItem)
  const { account, reloadAccount } = useAccount()
  const { focused, lastOpened, focus } = useFocusedImage()
  const ticked = useTickedImages()
  const { scan, scanAndShow, rescan } = usePageScan({
    onTabSwitched: () => {
      focus(null)
      ticked.clear()
    }
  })
  usePickedImage({
    settings: storedSettings,
    scanAndShow,
    onPicked: (picked) => {
      setTab("images")
      focus(picked)
    },
    onNothingPending: () => void scanAndShow()
  })
  const pasted = usePastedImage({
    settings,
    onPasted: (image) => {
      setTab("images")
      focus(image)
    }
  })
  const [captures, setCaptures] = useState<CapturedImage[]>([])
  const ready = scan.kind === "ready" ? scan : undefined
  const capture = useAreaCapture({
    settings: storedSettings,
    tabId: ready?.tabId,
    onCaptured: (captured) => {
      setCaptures((earlier) => [captured.image, ...earlier])
      setTab("images")
      focus(captured)
    }
  })
  // The areas captured from the page shown come first in its list.
  const capturedHere = captures.filter((captured) => captured.tabId === ready?.tabId)
  const images = [...capturedHere, ...(ready?.images ?? [])]
  const tickedImages = images.filter((image) => ticked.has(image.url))
  const chat = useChat({ images: tickedImages, tabId: ready?.tabId, pageUrl: ready?.pageUrl, settings, onUsageChanged: reloadAccount })

  useEffect(() => {
    document.title = "Image Query AI"
  }, [])

  const signIn = () => {
    if (apiOrigin) void chrome.tabs.create({ url: `${apiOrigin}/login?source=extension` })
  }

  return (
    <div className="min-h-screen bg-gray-50 pb-16 font-sans text-brand-secondary">
      <header className="sticky top-0 z-10 space-y-1 border-b border-gray-200 bg-white px-4 py-3">
        <div className="flex items-center justify-between">
          <Logo />
          <div className="flex items-center gap-1">
            <button
              type="button"
              onClick={capture.start}
              disabled={capture.status.kind === "selecting"}
              className="rounded-md px-2 py-1 text-sm font-medium text-blue-700 hover:bg-blue-50 focus-ring disabled:opacity-60"
            >
              Capture area
            </button>
            <button
              type="button"
              onClick={rescan}
              className="rounded-md px-2 py-1 text-sm font-medium text-blue-700 hover:bg-blue-50 focus-ring"
            >
              Rescan
            </button>
          </div>
        </div>
        <div className="flex items-center justify-between gap-2 text-xs text-gray-600" data-testid="panel-account">
          {account.kind === "checking" && <span>Checking your account…</span>}
          {account.kind === "signedOut" && (
            <>
              <span>Not signed in: local analyses only.</span>
              <button type="button" onClick={signIn} className="font-semibold text-blue-700 hover:underline focus-ring">
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

      {pasted.dragging && (
        <div className="pointer-events-none fixed inset-2 z-20 flex items-center justify-center rounded-xl border-2 border-dashed border-blue-500 bg-blue-50/90 p-6 text-center text-sm font-semibold text-blue-800">
          Drop an image to analyse it on this device
        </div>
      )}
      <main className="p-4" id={tabPanelId(tab)} role="tabpanel" aria-labelledby={tabId(tab)}>
        {capture.status.kind === "selecting" && (
          <div role="status" data-testid="area-capture-status" className="mb-3 flex items-start justify-between gap-2 rounded-lg border border-blue-200 bg-blue-50 p-3 text-sm text-blue-900">
            <p>Drag on the page to capture an area · Esc to cancel</p>
            <div className="flex shrink-0 flex-col items-end gap-1">
              <button type="button" onClick={capture.wholeView} className="font-semibold text-blue-700 hover:underline focus-ring">
                Capture the whole view
              </button>
              <button type="button" onClick={capture.cancel} className="font-semibold text-blue-700 hover:underline focus-ring">
                Cancel
              </button>
            </div>
          </div>
        )}
        {capture.status.kind === "refused" && <Refusal message={capture.status.message} onDismiss={capture.dismiss} testId="area-capture-refusal" />}
        {pasted.refusal && <Refusal message={pasted.refusal} onDismiss={pasted.dismiss} />}
        {tab === "images" &&
          (focused ? (
            <ImageDetail key={`${focused.image.url}|${focused.token}`} image={focused.image} settings={settings} onSettingsChange={(next) => void saveSettings(next)} autoRun={focused.autoRun} onBack={() => focus(null)} onUsageChanged={reloadAccount} onSignIn={signIn} />
          ) : scan.kind === "loading" ? (
            <Spinner label="Finding images" />
          ) : scan.kind === "unavailable" ? (
            <p className="rounded-lg bg-white p-4 text-sm text-gray-600 shadow-sm">This page cannot be scanned. Open a regular web page and press Rescan, or paste an image here (Ctrl+V).</p>
          ) : (
            <ImagesTab
              images={scan.images}
              captured={capturedHere}
              filters={filters}
              onFiltersChange={setFilters}
              selected={ticked.urls}
              onToggleSelected={ticked.toggle}
              onClearSelection={ticked.clear}
              onOpen={(image) => focus({ image: { ...image, tabId: scan.tabId, pageUrl: scan.pageUrl }, autoRun: null, token: Date.now() })}
              highlighted={lastOpened}
            />
          ))}
        {tab === "chat" && <ChatTab images={tickedImages} messages={chat.messages} busy={chat.busy} onSend={chat.send} onClear={chat.clear} usage={account.kind === "signedIn" ? account.usage : null} />}
        {tab === "history" && <HistoryTab entries={history ?? []} onClear={() => void clearHistory()} />}
        {tab === "settings" && apiOrigin !== undefined && <SettingsTab settings={settings} onChange={(next) => void saveSettings(next)} apiOrigin={apiOrigin} onApiOriginChange={changeApiOrigin} />}
      </main>
      <TabBar current={tab} onChange={setTab} />
    </div>
  )
}

/** Why an image the user brought (a capture, a paste or a drop) was refused, until dismissed. */
function Refusal({ message, onDismiss, testId }: { message: string; onDismiss: () => void; testId?: string }) {
  return (
    <div role="alert" data-testid={testId} className="mb-3 flex items-start justify-between gap-2 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800">
      <p>{message}</p>
      <button type="button" onClick={onDismiss} className="font-semibold text-blue-700 hover:underline focus-ring">
        Dismiss
      </button>
    </div>
  )
}
