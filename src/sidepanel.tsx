import { useCallback, useEffect, useState } from "react"

import type { PageImage } from "~core/page-images"
import { getActiveTab, requestPageImages } from "~extension/active-tab"
import { SELECTED_IMAGE_KEY, type SelectedImage } from "~extension/messages"
import { Logo } from "~ui/Logo"
import { Spinner } from "~ui/Spinner"

import "~site/styles"

type PanelState =
  | { kind: "loading" }
  | { kind: "unavailable" }
  | { kind: "ready"; images: PageImage[]; pageTitle: string }

async function scanActiveTab(): Promise<PanelState> {
  const tab = await getActiveTab()
  const images = tab?.id === undefined ? null : await requestPageImages(tab.id)
  return images ? { kind: "ready", images, pageTitle: tab?.title ?? "" } : { kind: "unavailable" }
}

function SidePanel() {
  const [state, setState] = useState<PanelState>({ kind: "loading" })
  const [selected, setSelected] = useState<SelectedImage | null>(null)

  const rescan = useCallback(() => {
    void scanActiveTab().then(setState)
  }, [])

  useEffect(() => {
    rescan()
    const onActivated = () => rescan()
    chrome.tabs.onActivated.addListener(onActivated)
    void chrome.storage.session.get(SELECTED_IMAGE_KEY).then((items) => setSelected((items[SELECTED_IMAGE_KEY] as SelectedImage) ?? null))
    const onStorage = (changes: Record<string, chrome.storage.StorageChange>, area: string) => {
      if (area === "session" && SELECTED_IMAGE_KEY in changes) setSelected((changes[SELECTED_IMAGE_KEY]?.newValue as SelectedImage) ?? null)
    }
    chrome.storage.onChanged.addListener(onStorage)
    return () => {
      chrome.tabs.onActivated.removeListener(onActivated)
      chrome.storage.onChanged.removeListener(onStorage)
    }
  }, [rescan])

  return (
    <div className="min-h-screen bg-gray-50 font-sans text-brand-secondary">
      <header className="flex items-center justify-between border-b border-gray-200 bg-white px-4 py-3">
        <Logo />
        <button
          type="button"
          onClick={() => {
            setState({ kind: "loading" })
            rescan()
          }}
          className="rounded-md px-2 py-1 text-sm font-medium text-brand-primary hover:bg-blue-50 focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-primary"
        >
          Rescan
        </button>
      </header>
      <main className="p-4">
        {state.kind === "loading" && <Spinner label="Finding images" />}
        {state.kind === "unavailable" && (
          <p className="rounded-lg bg-white p-4 text-sm text-gray-600 shadow-sm">
            This page cannot be scanned. Open a regular web page and press Rescan.
          </p>
        )}
        {state.kind === "ready" && (
          <>
            <h1 className="text-base font-semibold" aria-live="polite">
              {state.images.length === 1 ? "1 image" : `${state.images.length} images`} on this page
            </h1>
            {state.pageTitle && <p className="truncate text-xs text-gray-500">{state.pageTitle}</p>}
            <ul className="mt-4 grid grid-cols-2 gap-3" aria-label="Images on this page">
              {state.images.map((image) => {
                const isSelected = selected?.url === image.url
                return (
                  <li
                    key={image.url}
                    aria-current={isSelected ? "true" : undefined}
                    className={`overflow-hidden rounded-lg border bg-white shadow-sm ${isSelected ? "border-brand-primary ring-2 ring-brand-primary" : "border-gray-200"}`}
                  >
                    <img src={image.url} alt={image.alt} className="h-28 w-full bg-gray-100 object-contain" />
                    <p className="px-2 py-1 text-xs text-gray-600">
                      {image.width} × {image.height}
                    </p>
                  </li>
                )
              })}
            </ul>
          </>
        )}
      </main>
    </div>
  )
}

export default SidePanel
