/** The side panel's calls to the vision model through our API (questions, translations), with the extension's own session. */
import { ApiRequestError, INVALID_RESPONSE_CODE, SIGNED_OUT_CODE } from "~http/http-client"
import {
  translateAnswerSchema,
  translateImagesAnswerSchema,
  type TranslateAnswer,
  type TranslateImagesAnswer,
  type TranslateImagesRequest,
  type TranslateRequest
} from "~core/analysis/translate"
import { MAX_HISTORY_ANSWER_LENGTH, MAX_HISTORY_TURNS, type VqaAnswer, type VqaHistoryTurn } from "~core/analysis/vqa"
import { extensionApi } from "~extension/account/extension-session"

import { toVqaDataUrl } from "../images/image-bytes"

export const SIGNED_OUT_MESSAGE = "Sign in to ask the vision model about images."
export const SIGNED_OUT_TRANSLATE_MESSAGE = "Sign in to translate text."
export const SIGNED_OUT_TRANSLATE_IMAGES_MESSAGE = "Sign in to Image Query AI to translate the images on this page."
const UNREACHABLE_MESSAGE = "The Image Query AI service could not be reached. Check your connection and the API address in Settings."

/** A refused or failed question, in the panel's words; `signedOut` offers the way to sign in; `quotaExceeded`: the plan's month is spent. */
export class VqaRequestError extends Error {
  override readonly name = "VqaRequestError"
  constructor(
    message: string,
    readonly signedOut = false,
    readonly quotaExceeded = false
  ) {
    super(message)
  }
}

/** The client's error as the panel says it: signed out, unreachable, or the server's own message. */
export function toVqaError(error: unknown, signedOutMessage = SIGNED_OUT_MESSAGE): VqaRequestError {
  if (!(error instanceof ApiRequestError)) return new VqaRequestError(UNREACHABLE_MESSAGE)
  if (error.code === SIGNED_OUT_CODE || error.status === 401) return new VqaRequestError(signedOutMessage, true)
  if (error.isNetworkError) return new VqaRequestError(UNREACHABLE_MESSAGE)
  if (error.code === INVALID_RESPONSE_CODE) return new VqaRequestError(`The service answered ${error.status}. Try again in a moment.`)
  return new VqaRequestError(error.message, false, error.code === "QUOTA_EXCEEDED")
}

/** The latest turns of a chat, each within the server's limits. */
export function recentHistory(turns: readonly VqaHistoryTurn[]): VqaHistoryTurn[] {
  return turns.slice(-MAX_HISTORY_TURNS).map(({ question, answer }) => ({ question, answer: answer.slice(0, MAX_HISTORY_ANSWER_LENGTH) }))
}

export async function askAboutImage({ image, question, model, history = [] }: { image: Blob; question: string; model: string; history?: readonly VqaHistoryTurn[] }): Promise<VqaAnswer> {
  const dataUrl = await toVqaDataUrl(image)
  const turns = recentHistory(history)
  try {
    return await extensionApi().post<VqaAnswer>("/api/analyze/ask", { image: { dataUrl }, question, model, ...(turns.length ? { history: turns } : {}) })
  } catch (error) {
    throw toVqaError(error)
  }
}

/**
 * Translates a text (an OCR result) into a language of TRANSLATE_LANGUAGES, a region variant allowed ("pt-BR").
 * Counted in the monthly quota like a question; the answer carries the usage after it.
 */
/** A text, or an image's lines (translated in one request, each at its index in the answer's `lines`). */
export async function translateText({ text, lines, targetLanguage, sourceLanguage }: TranslateRequest): Promise<TranslateAnswer> {
  let data: unknown
  try {
    data = await extensionApi().post<unknown>("/api/analyze/translate", { ...(lines ? { lines } : { text }), targetLanguage, ...(sourceLanguage ? { sourceLanguage } : {}) })
  } catch (error) {
    throw toVqaError(error, SIGNED_OUT_TRANSLATE_MESSAGE)
  }
  const answer = translateAnswerSchema.safeParse(data)
  if (!answer.success) throw new VqaRequestError("The service sent a translation that could not be read. Try again in a moment.")
  return answer.data
}

/**
 * The lines of several images (translate images on this page) in one request, each image's at its index; at most
 * MAX_TRANSLATE_BATCH_LINES lines in all. Each image translated counts one request of the month's quota; when the
 * quota runs out part-way the images past it come back null and `quotaExceeded` says why.
 */
export async function translateImages({ images, targetLanguage, sourceLanguage }: TranslateImagesRequest): Promise<TranslateImagesAnswer> {
  let data: unknown
  try {
    data = await extensionApi().post<unknown>("/api/analyze/translate-images", { images, targetLanguage, ...(sourceLanguage ? { sourceLanguage } : {}) })
  } catch (error) {
    throw toVqaError(error, SIGNED_OUT_TRANSLATE_IMAGES_MESSAGE)
  }
  const answer = translateImagesAnswerSchema.safeParse(data)
  if (!answer.success || answer.data.images.length !== images.length) throw new VqaRequestError("The service sent translations that could not be read. Try again in a moment.")
  return answer.data
}
