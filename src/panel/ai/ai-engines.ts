/**
 * The panel's AI, one interface over two engines: the browser's own model on this device, and the vision model
 * through Image Query AI's service. The engine is chosen here for each request (engine-choice.ts), from the person's
 * choice in Settings and what the browser says; the features (Ask, Scene, Chat, Translate, the page's translation)
 * call these functions and learn the engine only to say where an answer came from.
 */
import type { TranslateImagesRequest, TranslateRequest } from "~core/analysis/translate"
import type { VqaHistoryTurn } from "~core/analysis/vqa"

import { askAboutImage, translateImages, translateText } from "../chat/vqa-client"
import { absentReason, questionsAvailability, UNAVAILABLE_REASON } from "./built-in-ai"
import { DeviceEngineError } from "./device-errors"
import { askOnDevice } from "./device-questions"
import { devicePairFor, translateLinesOnDevice } from "./device-translation"
import { pickEngine, type AnswerSource, type AiCapability, type EngineChoice, type EnginePick, type ModelAvailability } from "./engine-choice"

/** The reason Settings and refusals give for a state with no model. */
export const reasonFor = (availability: ModelAvailability): string | undefined =>
  availability === "absent" ? absentReason() : availability === "unavailable" ? UNAVAILABLE_REASON : undefined

/** The engine for one request; `only` forces one (the person asked our service after the device failed). */
async function choose(
  capability: AiCapability,
  choice: EngineChoice,
  availability: () => Promise<{ availability: ModelAvailability; reason?: string }>,
  only?: AnswerSource
): Promise<Exclude<EnginePick, { refused: string }>> {
  if (only) return { engine: only }
  const state = choice === "service" ? { availability: "absent" as const } : await availability()
  const pick = pickEngine(choice, capability, state.availability, state.reason ?? reasonFor(state.availability))
  if ("refused" in pick) throw new DeviceEngineError(pick.refused, "unavailable")
  return pick
}

const questionsState = async () => ({ availability: await questionsAvailability() })

/** A device failure as the panel shows it: under *Automatic* with the offer to ask our service instead. */
const failed = (error: unknown, capability: AiCapability, choice: EngineChoice) => {
  const deviceError = DeviceEngineError.from(error, capability)
  return choice === "auto" ? deviceError.withServiceOffer() : deviceError
}

/** A translation to plan: its text (empty when not read yet) and target, and the OCR's language as a hint. */
export interface PlannedTranslation {
  text: string
  targetLanguage: string
  sourceHint?: string
}

/** Which engine would answer now, before anything is sent: what the panel says a question or translation sends. */
export async function plannedEngine(capability: AiCapability, choice: EngineChoice, translation?: PlannedTranslation): Promise<AnswerSource | "refused"> {
  const availability = capability === "questions" ? questionsState : () => devicePairFor(translation?.text ?? "", translation?.targetLanguage ?? "en", translation?.sourceHint)
  return choose(capability, choice, availability).then(
    (pick) => pick.engine,
    () => "refused" as const
  )
}

export interface AskRequest {
  /** The image's address: a device session is kept per image. */
  imageKey: string
  image: Blob
  question: string
  /** Our service's model, chosen in Settings. */
  model: string
  history?: readonly VqaHistoryTurn[]
  choice: EngineChoice
  /** One engine regardless of the choice: "service" when the person asked for it after a device failure. */
  only?: AnswerSource
  /** Stops a streamed answer (the device's); the answer so far is kept. */
  signal?: AbortSignal
  onPartial?: (answerSoFar: string) => void
}

export interface AiAnswer {
  answer: string
  /** The model that answered, for the service's; the device's is the browser's own. */
  model: string
  source: AnswerSource
  /** Stopped by the person before the end: `answer` is what came until then. */
  stopped?: boolean
}

/** The device's model, as answers name it. */
export const DEVICE_MODEL = "the browser's built-in model"

/** A question about an image (Ask, Scene, each image of a Chat), answered by the engine chosen for questions. */
export async function askImage(request: AskRequest): Promise<AiAnswer> {
  const { engine } = await choose("questions", request.choice, questionsState, request.only)
  if (engine === "service") {
    const answer = await askAboutImage({ image: request.image, question: request.question, model: request.model, history: request.history })
    return { answer: answer.answer, model: answer.model, source: "service" }
  }
  try {
    const { answer, stopped } = await askOnDevice(request)
    return { answer, model: DEVICE_MODEL, source: "device", ...(stopped ? { stopped } : {}) }
  } catch (error) {
    throw failed(error, "questions", request.choice)
  }
}

export interface AiTranslation {
  translation: string
  /** The translated lines, at the index of each line sent; only when lines were sent. */
  lines?: string[]
  targetLanguage: string
  source: AnswerSource
}

export interface TranslateOptions {
  choice: EngineChoice
  /** The text's language when known (the OCR's), for a browser without a language detector. */
  sourceHint?: string
  only?: AnswerSource
}

/** A text or an image's lines, translated by the engine chosen for translation (the pair decides on the device). */
export async function translateWithEngine(request: TranslateRequest, { choice, sourceHint, only }: TranslateOptions): Promise<AiTranslation> {
  const lines = request.lines ?? [request.text ?? ""]
  let pair: Awaited<ReturnType<typeof devicePairFor>>["pair"] = null
  const { engine } = await choose("translation", choice, async () => {
    const found = await devicePairFor(lines.join("\n"), request.targetLanguage, request.sourceLanguage ?? sourceHint)
    pair = found.pair
    return found
  }, only)
  if (engine === "service") {
    const answer = await translateText(request)
    return { translation: answer.translation, ...(answer.lines ? { lines: answer.lines } : {}), targetLanguage: answer.targetLanguage, source: "service" }
  }
  try {
    const translated = await translateLinesOnDevice(lines, pair!)
    return { translation: translated.join("\n"), ...(request.lines ? { lines: translated } : {}), targetLanguage: request.targetLanguage, source: "device" }
  } catch (error) {
    throw failed(error, "translation", choice)
  }
}

/** The two ways the page's translation sends lines (page-translation/batches.ts), with what it reads of the answers. */
export interface TranslateClients {
  translateImages: (request: TranslateImagesRequest) => Promise<Pick<Awaited<ReturnType<typeof translateImages>>, "images" | "targetLanguage" | "quotaExceeded">>
  translateText: (request: TranslateRequest) => Promise<Pick<AiTranslation, "lines" | "targetLanguage">>
}

/**
 * The page's translation with the engine chosen for translation: each image goes to the device when the device
 * takes its pair, the others to our service together in one request, as before.
 */
export function translationClients(choice: EngineChoice, sourceHint?: string): TranslateClients {
  return { translateImages: translateImagesWithEngine(choice, sourceHint), translateText: (request) => translateWithEngine(request, { choice, sourceHint }) }
}

function translateImagesWithEngine(choice: EngineChoice, sourceHint?: string): TranslateClients["translateImages"] {
  return async (request) => {
    if (choice === "service") return translateImages(request)
    const onDevice = await Promise.all(
      request.images.map((image) =>
        translateWithEngine({ lines: image.lines, targetLanguage: request.targetLanguage }, { choice: choice === "auto" ? "device" : choice, sourceHint }).then(
          (answer) => answer.lines ?? null,
          (error: unknown) => {
            // Under *Automatic* a pair the device cannot take now goes to our service; a device that failed says so.
            if (choice === "device" || !(error instanceof DeviceEngineError) || error.failure !== "unavailable") throw error
            return null
          }
        )
      )
    )
    const rest = request.images.filter((_, index) => !onDevice[index])
    if (!rest.length) return { images: onDevice.map((lines) => ({ lines: lines! })), targetLanguage: request.targetLanguage }
    const served = await translateImages({ ...request, images: rest })
    let next = 0
    return { ...served, images: onDevice.map((lines) => (lines ? { lines } : served.images[next++] ?? null)) }
  }
}
