/** The OpenAI-compatible chat-completions call with one image, one question and the chat so far about it. */
import type { VqaHistoryTurn } from "~core/vqa"

import { ApiError } from "../http/errors"

export interface ProviderSettings {
  apiKey: string
  baseUrl: string
  timeoutMs: number
}

/** Largest provider answer read; anything longer is treated as garbage. */
const MAX_PROVIDER_RESPONSE_BYTES = 1024 * 1024

function providerError(message: string): ApiError {
  return new ApiError(502, "PROVIDER_ERROR", message)
}

function messageForStatus(status: number): string {
  if (status === 401 || status === 403) return "The vision model provider refused this server's API key. Please tell the administrator."
  if (status === 429) return "The vision model provider is busy right now. Please try again in a moment."
  return `The vision model provider answered with an error (HTTP ${status}). Please try again later.`
}

/** The text of the first choice, whether content is a string or a list of parts. */
export function answerText(body: unknown): string | null {
  if (typeof body !== "object" || body === null) return null
  const choices = (body as { choices?: unknown }).choices
  if (!Array.isArray(choices) || choices.length === 0) return null
  const message = (choices[0] as { message?: { content?: unknown } } | null)?.message
  const content = message?.content
  if (typeof content === "string") return content.trim() || null
  if (Array.isArray(content)) {
    const text = content
      .map((part: unknown) => (typeof part === "object" && part !== null && typeof (part as { text?: unknown }).text === "string" ? (part as { text: string }).text : ""))
      .join("")
      .trim()
    return text || null
  }
  return null
}

async function readLimited(response: Response): Promise<string> {
  const declared = Number(response.headers.get("content-length"))
  if (Number.isFinite(declared) && declared > MAX_PROVIDER_RESPONSE_BYTES) throw new Error("too large")
  if (!response.body) return ""
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > MAX_PROVIDER_RESPONSE_BYTES) {
      await reader.cancel().catch(() => {})
      throw new Error("too large")
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks).toString("utf8")
}

/**
 * Asks the model; every failure (time-out, refused key, error status, unreadable answer) becomes
 * 502 PROVIDER_ERROR with a plain message. The API key goes into the Authorization header only.
 */
/**
 * The chat as the model reads it: the image goes with the first question, earlier answers follow as the
 * assistant's turns, and the new question comes last.
 */
export function chatMessages({ question, imageDataUrl, history = [] }: { question: string; imageDataUrl: string; history?: readonly VqaHistoryTurn[] }): unknown[] {
  const image = { type: "image_url", image_url: { url: imageDataUrl } }
  if (history.length === 0) return [{ role: "user", content: [{ type: "text", text: question }, image] }]
  const [first, ...rest] = history
  return [
    { role: "user", content: [{ type: "text", text: first!.question }, image] },
    { role: "assistant", content: first!.answer },
    ...rest.flatMap((turn) => [
      { role: "user", content: turn.question },
      { role: "assistant", content: turn.answer }
    ]),
    { role: "user", content: question }
  ]
}

export async function askVisionModel(
  settings: ProviderSettings,
  input: { model: string; question: string; imageDataUrl: string; history?: readonly VqaHistoryTurn[] }
): Promise<string> {
  const signal = AbortSignal.timeout(settings.timeoutMs)
  let response: Response
  try {
    response = await fetch(`${settings.baseUrl}/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${settings.apiKey}`, "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({
        model: input.model,
        messages: chatMessages(input),
        max_tokens: 500
      }),
      redirect: "error",
      signal
    })
  } catch {
    if (signal.aborted) throw providerError("The vision model did not answer in time. Please try again.")
    throw providerError("The vision model provider could not be reached. Please try again later.")
  }

  let text: string
  try {
    text = await readLimited(response)
  } catch {
    if (signal.aborted) throw providerError("The vision model did not answer in time. Please try again.")
    throw providerError("The vision model sent an answer that could not be read.")
  }
  if (!response.ok) throw providerError(messageForStatus(response.status))

  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    throw providerError("The vision model sent an answer that could not be read.")
  }
  const answer = answerText(body)
  if (answer === null) throw providerError("The vision model sent an answer that could not be read.")
  return answer
}
