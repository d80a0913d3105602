/** The side panel's calls to the vision model through our API, with the extension's own session. */
import { MAX_HISTORY_ANSWER_LENGTH, MAX_HISTORY_TURNS, type VqaAnswer, type VqaHistoryTurn } from "~core/vqa"
import { extensionApiFetch, ExtensionSessionError } from "~extension/extension-session"

import { toVqaDataUrl } from "./image-bytes"

/** Not an API code: the extension holds no session. */
export const SIGNED_OUT_CODE = "SIGNED_OUT"
export const SIGNED_OUT_MESSAGE = "Sign in to ask the vision model about images."

export class VqaRequestError extends Error {
  override readonly name = "VqaRequestError"
  constructor(
    readonly code: string,
    message: string
  ) {
    super(message)
  }
}

interface Wrapper<T> {
  success?: boolean
  data?: T
  error?: { code?: string; message?: string }
}

async function call<T>(path: string, init: RequestInit = {}): Promise<T> {
  let response: Response
  try {
    response = await extensionApiFetch(path, { ...init, headers: { accept: "application/json", ...(init.body ? { "content-type": "application/json" } : {}) } })
  } catch (error) {
    if (error instanceof ExtensionSessionError) throw new VqaRequestError(SIGNED_OUT_CODE, SIGNED_OUT_MESSAGE)
    throw new VqaRequestError("NETWORK_ERROR", "The Image Query AI service could not be reached. Check your connection and the API address in Settings.")
  }
  let body: Wrapper<T> | null = null
  try {
    body = (await response.json()) as Wrapper<T>
  } catch {
    body = null
  }
  if (response.ok && body?.success !== false && body?.data !== undefined) return body.data
  if (response.status === 401) throw new VqaRequestError(SIGNED_OUT_CODE, SIGNED_OUT_MESSAGE)
  throw new VqaRequestError(body?.error?.code ?? "SERVER_ERROR", body?.error?.message ?? `The service answered ${response.status}. Try again in a moment.`)
}

/** The latest turns of a chat, each within the server's limits. */
export function recentHistory(turns: readonly VqaHistoryTurn[]): VqaHistoryTurn[] {
  return turns.slice(-MAX_HISTORY_TURNS).map(({ question, answer }) => ({ question, answer: answer.slice(0, MAX_HISTORY_ANSWER_LENGTH) }))
}

export async function askAboutImage({ image, question, model, history = [] }: { image: Blob; question: string; model: string; history?: readonly VqaHistoryTurn[] }): Promise<VqaAnswer> {
  const dataUrl = await toVqaDataUrl(image)
  const turns = recentHistory(history)
  return call<VqaAnswer>("/api/analyze/ask", { method: "POST", body: JSON.stringify({ image: { dataUrl }, question, model, ...(turns.length ? { history: turns } : {}) }) })
}
