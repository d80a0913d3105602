import { useRef, useState } from "react"

import type { VqaHistoryTurn } from "~core/analysis/vqa"

import { describe } from "../analyses"
import type { PanelImage } from "../images/tab-images"
import { analyseAndRecord } from "../record-analysis"
import type { PanelSettings } from "../settings/settings"

/** Each question goes to the vision model once per selected image, for at most this many images. */
export const MAX_CHAT_IMAGES = 4

export interface ChatMessage {
  id: number
  role: "user" | "assistant" | "error"
  text: string
  /** The image an answer is about, when several are selected. */
  imageUrl?: string
  /** Answers: the question they answer, sent back to the model with the next question about that image. */
  question?: string
}

/** The conversation so far about one image, as question and answer turns. */
export function chatHistoryFor(messages: readonly ChatMessage[], imageUrl: string): VqaHistoryTurn[] {
  return messages
    .filter((message) => message.role === "assistant" && message.imageUrl === imageUrl && message.question)
    .map((message) => ({ question: message.question!, answer: message.text }))
}

export interface ChatOptions {
  /** The images ticked in the grid; the first MAX_CHAT_IMAGES are asked about. */
  images: readonly PanelImage[]
  tabId: number | undefined
  pageUrl: string | undefined
  settings: PanelSettings
  onUsageChanged: () => void
}

/**
 * A conversation with the vision model about the ticked images: each question is asked about each image in turn,
 * with the earlier turns about that image, and stops at the first refusal (a spent quota refuses them all).
 */
export function useChat({ images, tabId, pageUrl, settings, onUsageChanged }: ChatOptions) {
  const [messages, setMessages] = useState<ChatMessage[]>([])
  const [busy, setBusy] = useState(false)
  const lastId = useRef(0)
  const add = (message: Omit<ChatMessage, "id">) => setMessages((current) => [...current, { ...message, id: ++lastId.current }])

  const send = (question: string) => {
    const targets = images.slice(0, MAX_CHAT_IMAGES)
    const earlier = messages
    add({ role: "user", text: question })
    setBusy(true)
    void (async () => {
      for (const image of targets) {
        try {
          const outcome = await analyseAndRecord(
            { kind: "ask", image: { url: image.url, tabId, frameId: image.frameId, pageUrl }, settings, question, history: chatHistoryFor(earlier, image.url) },
            { pageUrl, onUsageChanged }
          )
          add({ role: "assistant", text: describe(outcome), imageUrl: image.url, question })
        } catch (error) {
          add({ role: "error", text: error instanceof Error ? error.message : "The question could not be asked.", imageUrl: image.url })
          // A refusal often means the quota ran out, perhaps in another window: the usage shown may be stale.
          onUsageChanged()
          break
        }
      }
      setBusy(false)
    })()
  }

  return { messages, busy, send, clear: () => setMessages([]) }
}
