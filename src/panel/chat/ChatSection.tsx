import { SOURCE_LABELS } from "../ai/engine-choice"
import { QuestionNotice } from "../ai/QuestionNotice"
import { AskServiceButton, StopAnswering } from "../ai/StreamingAnswer"
import type { PanelImage } from "../images/tab-images"
import { QuestionForm } from "./QuestionForm"
import { ShownImage } from "../images/ShownImage"
import { MAX_CHAT_IMAGES, type ChatMessage } from "./use-chat"

export interface ChatSectionProps {
  images: PanelImage[]
  /** The tab the images are on (blob: images are read there). */
  tabId: number | undefined
  /** The page the images were listed from. */
  pageUrl: string | undefined
  messages: ChatMessage[]
  busy: boolean
  onSend: (question: string) => void
  /** Ends the answer streaming in. */
  onStop: () => void
  /** Asks a failed question of our service (the device's model failed under *Automatic*). */
  onAskService: (failed: ChatMessage) => void
  onClear: () => void
  usage: string | null
}

export function ChatSection({ images, tabId, pageUrl, messages, busy, onSend, onStop, onAskService, onClear, usage }: ChatSectionProps) {
  const streaming = messages.some((message) => message.streaming && message.text)
  const locate = (url: string) => ({ url, tabId, pageUrl, frameId: images.find((image) => image.url === url)?.frameId })
  return (
    <div className="flex min-h-[calc(100vh-9rem)] flex-col gap-3">
      <div className="flex items-center justify-between">
        <h1 className="text-base font-semibold">Chat</h1>
        {messages.length > 0 && (
          <button type="button" onClick={onClear} className="text-sm font-medium text-blue-700 hover:underline focus-ring">
            New conversation
          </button>
        )}
      </div>
      {images.length === 0 ? (
        <p className="rounded-lg bg-white p-4 text-sm text-gray-600 shadow-sm">Select one or more images in the Images tab, then ask the vision model about them here.</p>
      ) : (
        <div className="flex gap-2" aria-label="Images in this conversation">
          {images.slice(0, MAX_CHAT_IMAGES).map((image) => (
            <ShownImage key={image.url} image={locate(image.url)} brief alt={image.alt || "Selected image"} className="h-14 w-14 rounded border border-gray-200 bg-gray-100 object-cover" />
          ))}
          {images.length > MAX_CHAT_IMAGES && <p className="self-center text-xs text-gray-600">Only the first {MAX_CHAT_IMAGES} selected images are asked about.</p>}
        </div>
      )}
      <ol className="flex-1 space-y-2" aria-label="Conversation" aria-live="polite">
        {messages.filter((message) => message.text || !message.streaming).map((message) => (
          <li
            key={message.id}
            className={`max-w-[90%] whitespace-pre-wrap rounded-lg p-3 text-sm ${
              message.role === "user" ? "ml-auto bg-blue-600 text-white" : message.role === "error" ? "border border-red-200 bg-red-50 text-red-800" : "border border-gray-200 bg-white"
            }`}
            data-role={message.role}
          >
            {message.imageUrl && images.length > 1 && <ShownImage image={locate(message.imageUrl)} brief alt="" className="mb-2 h-10 w-10 rounded object-cover" />}
            <span data-testid="message-text">{message.text}</span>
            {message.role === "assistant" && message.source && (
              <span className="mt-1 block text-xs text-gray-500" data-testid="answer-source" data-source={message.source}>
                {message.stopped ? "Stopped · " : ""}
                {SOURCE_LABELS[message.source]}
              </span>
            )}
            {message.offerService && (
              <span className="mt-2 block">
                <AskServiceButton onClick={() => onAskService(message)} />
              </span>
            )}
          </li>
        ))}
        {busy && !streaming && (
          <li role="status" className="text-sm text-gray-600">
            Asking the vision model…
          </li>
        )}
        {streaming && <StopAnswering as="li" onStop={onStop} />}
      </ol>
      <QuestionForm
        id="chat-question"
        label="Your question"
        placeholder={images.length === 0 ? "Select an image first" : "Ask about the selected images"}
        submitLabel="Send"
        unavailable={images.length === 0}
        busy={busy}
        onAsk={onSend}
        clearOnSend
        notice={images.length > 0 && <QuestionNotice chat images={images.slice(0, MAX_CHAT_IMAGES).map(({ url }) => locate(url))} />}
        className="sticky bottom-14 bg-gray-50 py-2"
      />
      {usage && <p className="text-xs text-gray-500" data-testid="chat-usage">{usage}</p>}
    </div>
  )
}
