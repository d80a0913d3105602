/**
 * The side panel: composes the page's images (scanned, captured, pasted or picked on the page), the image in focus,
 * the chat about the ticked ones, the history and the settings, under the header and over the section bar.
 */
import { useEffect, useState } from "react"

import { DEFAULT_IMAGE_FILTER } from "~core/images/image-size"
import { apiOriginItem } from "~extension/site-link/api-origin"
import { changeApiOrigin } from "~extension/account/extension-session"
import { setSentFromPage } from "~extension/account/sent-ledger"
import { useAccount } from "~extension/account/use-account"
import { useBrand } from "~extension/account/use-brand"
import { useStorageItem } from "~extension/storage/use-storage-item"

import { retainSessionsFor } from "./ai/device-questions"
import { DEVICE_NOT_COUNTED, usePlannedEngine } from "./ai/use-planned-engine"
import { ChatSection } from "./chat/ChatSection"
import { clearHistory, historyItem } from "./chat/history"
import { HistorySection } from "./chat/HistorySection"
import type { ImageFilters } from "./images/ImagesSection"
import { ImagesView } from "./images/ImagesView"
import { usePageTranslation } from "./page-translation/use-page-translation"
import { PanelHeader } from "./PanelHeader"
import { DropOverlay, PanelNotices } from "./PanelNotices"
import { DEFAULT_PANEL_SETTINGS, panelSettingsItem, type PanelSettings } from "./settings/settings"
import { SettingsSection } from "./settings/SettingsSection"
import { PanelSections, SectionBar, SectionPanel, type PanelSection } from "./SectionBar"
import { useAreaCapture, type CapturedImage } from "./images/use-area-capture"
import { useChat } from "./chat/use-chat"
import { useFocusedImage, type FocusedImage } from "./images/use-focused-image"
import { usePageScan } from "./images/use-page-scan"
import { usePastedImage } from "./images/use-pasted-image"
import { usePickedImage } from "./images/use-picked-image"
import { useSectionScroll } from "./images/use-section-scroll"
import { useTickedImages } from "./images/use-ticked-images"

export function SidePanel() {
  const [section, setSection] = useState<PanelSection>("images")
  useSectionScroll(section)
  const [filters, setFilters] = useState<ImageFilters>({ ...DEFAULT_IMAGE_FILTER, type: "any", query: "" })
  const [storedSettings, saveSettings] = useStorageItem(panelSettingsItem)
  const settings = storedSettings ?? DEFAULT_PANEL_SETTINGS
  const changeSettings = (next: PanelSettings) => void saveSettings(next)
  const [apiOrigin] = useStorageItem(apiOriginItem)
  const [history] = useStorageItem(historyItem)
  const { account, reloadAccount } = useAccount()
  const brand = useBrand()
  const { focused, lastOpened, focus } = useFocusedImage()
  /** An image brought to the panel (picked on the page, pasted, dropped, captured) opens in the Images section. */
  const show = (image: FocusedImage) => {
    setSection("images")
    focus(image)
  }
  const ticked = useTickedImages()
  const { scan, scanAndShow, rescan } = usePageScan({
    onTabSwitched: () => {
      focus(null)
      ticked.clear()
    }
  })
  usePickedImage({ settings: storedSettings, scanAndShow, onPicked: show, onNothingPending: () => void scanAndShow() })
  const pageTranslation = usePageTranslation({ scan, settings: storedSettings, scanAndShow, onUsageChanged: reloadAccount })
  const pasted = usePastedImage({ settings, onPasted: show })
  const [captures, setCaptures] = useState<CapturedImage[]>([])
  const ready = scan.kind === "ready" ? scan : undefined
  const capture = useAreaCapture({
    settings: storedSettings,
    tabId: ready?.tabId,
    onCaptured: (captured) => {
      setCaptures((earlier) => [captured.image, ...earlier])
      show(captured)
    }
  })
  // The areas captured from the page shown come first in its list.
  const capturedHere = captures.filter((captured) => captured.tabId === ready?.tabId)
  const images = [...capturedHere, ...(ready?.images ?? [])]
  const tickedImages = images.filter((image) => ticked.has(image.url))
  const chat = useChat({ images: tickedImages, tabId: ready?.tabId, pageUrl: ready?.pageUrl, settings, onUsageChanged: reloadAccount })
  // The plan's quota counts our service only: the usage line says so when the device answers questions.
  const answersOnDevice = usePlannedEngine("questions", settings.questionsEngine) === "device"
  const shownAccount = account.kind === "signedIn" && account.usage && answersOnDevice ? { ...account, usage: `${account.usage} · ${DEVICE_NOT_COUNTED}` } : account

  useEffect(() => {
    document.title = "Image Query AI"
  }, [])
  // Requests are recorded in Sent from this device with the host of the page the panel shows.
  useEffect(() => setSentFromPage(ready?.pageUrl), [ready?.pageUrl])
  // The device's model keeps a session per image for follow-up questions: only while the image is in view or in the chat.
  const keptImages = [focused?.image.url ?? "", ...tickedImages.map((image) => image.url)].join("\n")
  useEffect(() => retainSessionsFor(keptImages.split("\n")), [keptImages])

  return (
    <PanelSections current={section} onChange={setSection} className="min-h-screen bg-gray-50 pb-16 font-sans text-brand-secondary">
      <PanelHeader account={shownAccount} brand={brand} capturing={capture.status.kind === "selecting"} onCapture={capture.start} onRescan={rescan} />
      {pasted.dragging && <DropOverlay />}
      <main className="p-4">
        <PanelNotices capture={capture} pasted={pasted} />
        <SectionPanel section="images">
          <ImagesView
            scan={scan}
            captured={capturedHere}
            focused={focused}
            lastOpened={lastOpened}
            onFocus={focus}
            filters={filters}
            onFiltersChange={setFilters}
            ticked={ticked}
            settings={settings}
            onSettingsChange={changeSettings}
            onUsageChanged={reloadAccount}
            pageTranslation={pageTranslation}
          />
        </SectionPanel>
        <SectionPanel section="chat">
          <ChatSection images={tickedImages} tabId={ready?.tabId} pageUrl={ready?.pageUrl} messages={chat.messages} busy={chat.busy} onSend={chat.send} onStop={chat.stop} onAskService={chat.askService} onClear={chat.clear} usage={shownAccount.kind === "signedIn" ? shownAccount.usage : null} />
        </SectionPanel>
        <SectionPanel section="history">
          <HistorySection entries={history ?? []} onClear={() => void clearHistory()} />
        </SectionPanel>
        <SectionPanel section="settings">{apiOrigin !== undefined && <SettingsSection settings={settings} onChange={changeSettings} apiOrigin={apiOrigin} onApiOriginChange={changeApiOrigin} />}</SectionPanel>
      </main>
      <SectionBar current={section} />
    </PanelSections>
  )
}
