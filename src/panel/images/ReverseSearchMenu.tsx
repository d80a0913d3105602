import { DropdownMenu } from "radix-ui"
import { useState } from "react"

import { hasPublicAddress, REVERSE_SEARCH_ENGINES, type ReverseSearchEngineId } from "~core/analysis/reverse-search"
import { openReverseSearch } from "~extension/reverse-search/reverse-search"

import type { FocusedImage } from "./use-focused-image"

const itemStyles =
  "flex cursor-pointer select-none items-center justify-between gap-3 rounded-md px-3 py-2 text-sm text-gray-700 outline-none data-[highlighted]:bg-gray-100 data-[highlighted]:text-brand-secondary"

/**
 * "Search the web for this image": one entry per engine. An image without a public address opens the upload page,
 * which asks before sending it; the entries say so beforehand.
 */
export function ReverseSearchMenu({ image }: { image: FocusedImage["image"] }) {
  const [failure, setFailure] = useState<string | null>(null)
  const needsUpload = !hasPublicAddress(image.url)

  async function search(engine: ReverseSearchEngineId) {
    setFailure(null)
    try {
      const openerTab = image.tabId === undefined ? undefined : await chrome.tabs.get(image.tabId).catch(() => undefined)
      await openReverseSearch({ engine, url: image.url, tabId: image.tabId, frameId: image.frameId, openerTab })
    } catch {
      setFailure("The search could not be opened. Try again.")
    }
  }

  return (
    <div>
      <DropdownMenu.Root>
        <DropdownMenu.Trigger className="rounded-full border border-gray-300 bg-white px-3 py-1 text-sm font-medium text-brand-secondary hover:bg-gray-50 focus-ring">
          Search the web ▾
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content align="start" sideOffset={6} className="z-50 min-w-[14rem] rounded-lg border border-gray-200 bg-white p-1 shadow-lg">
            <DropdownMenu.Label className="px-3 py-1.5 text-xs text-gray-500">
              {needsUpload ? "This image must be uploaded: you are asked first" : "Search the web for this image"}
            </DropdownMenu.Label>
            {REVERSE_SEARCH_ENGINES.map((engine) => (
              <DropdownMenu.Item key={engine.id} className={itemStyles} onSelect={() => void search(engine.id)}>
                {engine.name}
                {needsUpload && <span className="text-xs text-gray-500">upload…</span>}
              </DropdownMenu.Item>
            ))}
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      {failure && (
        <p role="alert" className="mt-1 text-sm text-red-700">
          {failure}
        </p>
      )}
    </div>
  )
}
