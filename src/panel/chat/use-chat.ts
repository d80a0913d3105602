import { useRef, useState } from "react"

import type { VqaHistoryTurn } from "~core/analysis/vqa"

import { DeviceEngineError } from "../ai/device-errors"
import type { AnswerSource } from "../ai/engine-choice"
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
  /** Answers: where it came from; while it streams in, `streaming`. */
  source?: AnswerSource
  streaming?: boolean
  stopped?: boolean
  /** Errors: the device's model failed under *Automatic*: the question can go to our service in one click. */
  offerService?: boolean
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
 * A conversation about the ticked images: each question is asked about each image in turn, with the earlier turns
 * about that image, and stops at the first refusal (a spent quota refuses them all) or at Stop. Answers of the
 * device's model stream into their message as they come.
 */
export function useChat({ images, tabId, pageUrl, settings, onUsageChanged }: ChatOptions) {
  const [messages, setMessages] = useState<ChatMessage[]>([])
  const [busy, setBusy] = useState(false)
  const lastId = useRef(0)
  const stopper = useRef<AbortController | null>(null)
  const add = (message: Omit<ChatMessage, "id">) => {
    const id = ++lastId.current
    setMessages((current) => [...current, { ...message, id }])
    return id
  }
  const update = (id: number, change: Partial<ChatMessage>) => setMessages((current) => current.map((message) => (message.id === id ? { ...message, ...change } : message)))
  const remove = (id: number) => setMessages((current) => current.filter((message) => message.id !== id))

  /** Asks `question` about each target in turn, with the conversation so far about it; `only` forces an engine. */
  const ask = (question: string, targets: readonly PanelImage[], earlier: readonly ChatMessage[], only?: AnswerSource) => {
    setBusy(true)
    void (async () => {
      for (const image of targets) {
        const controller = (stopper.current = new AbortController())
        const answerId = add({ role: "assistant", text: "", imageUrl: image.url, question, streaming: true })
        try {
          const outcome = await analyseAndRecord(
            {
              kind: "ask",
              image: { url: image.url, tabId, frameId: image.frameId, pageUrl },
              settings,
              question,
              history: chatHistoryFor(earlier, image.url),
              signal: controller.signal,
              onPartial: (answerSoFar) => update(answerId, { text: answerSoFar }),
              only
            },
            { pageUrl, onUsageChanged }
          )
          const stopped = outcome.kind === "ask" && outcome.stopped
          update(answerId, { text: describe(outcome), streaming: false, source: outcome.kind === "ask" ? outcome.source : undefined, stopped })
          if (stopped) break
        } catch (error) {
          remove(answerId)
          const offerService = error instanceof DeviceEngineError && error.offerService
          add({ role: "error", text: error instanceof Error ? error.message : "The question could not be asked.", imageUrl: image.url, question, offerService })
          // A refusal often means the quota ran out, perhaps in another window: the usage shown may be stale.
          onUsageChanged()
          break
        }
      }
      stopper.current = null
      setBusy(false)
    })()
  }

  const send = (question: string) => {
    const earlier = messages
    add({ role: "user", text: question })
    ask(question, images.slice(0, MAX_CHAT_IMAGES), earlier)
  }

  /** The failed question of an error message, asked of our service about the same image. */
  const askService = (failed: ChatMessage) => {
    const image = images.find((candidate) => candidate.url === failed.imageUrl)
    if (!image || !failed.question) return
    const earlier = messages.filter((message) => message.id !== failed.id)
    setMessages(earlier)
    ask(failed.question, [image], earlier, "service")
  }

  return { messages, busy, send, askService, stop: () => stopper.current?.abort(), clear: () => setMessages([]) }
}
