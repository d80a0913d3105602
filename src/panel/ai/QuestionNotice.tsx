import { useStorageItem } from "~extension/storage/use-storage-item"

import type { ImageLocation } from "../images/image-bytes"
import { SendNotice } from "../sent/SendNotice"
import { DEFAULT_PANEL_SETTINGS, panelSettingsItem } from "../settings/settings"
import { NOTHING_SENT_TEXT, usePlannedEngine } from "./use-planned-engine"

/** Above a question: what asking sends to our service, or that nothing leaves the device when its model answers. */
export function QuestionNotice({ images, chat }: { images: readonly ImageLocation[]; chat?: boolean }) {
  const [stored] = useStorageItem(panelSettingsItem)
  const planned = usePlannedEngine("questions", (stored ?? DEFAULT_PANEL_SETTINGS).questionsEngine)
  if (planned === "service") return <SendNotice kind="question" images={images} chat={chat} />
  if (planned === "device") return <p className="text-xs text-gray-600" data-testid="device-notice">{NOTHING_SENT_TEXT.questions}</p>
  return null
}
