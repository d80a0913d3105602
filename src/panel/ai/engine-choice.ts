/**
 * Which engine answers a capability (Questions: Ask, Scene, Chat; Translation), from the person's choice in Settings
 * and what the browser says of its built-in model. The one place the choice is made: the panel's features call
 * ai-engines.ts, which asks this, and know the engine only to show where an answer came from.
 */
import { choicesOf } from "../settings/choices"

/** What the person picks per capability in Settings, in the order shown. */
export const ENGINE_CHOICE_LABELS = { auto: "Automatic", device: "On this device only", service: "Image Query AI service" }
export const ENGINE_CHOICES = choicesOf(ENGINE_CHOICE_LABELS)
export type EngineChoice = (typeof ENGINE_CHOICES)[number]

export type AiCapability = "questions" | "translation"
export const CAPABILITY_LABELS: Record<AiCapability, string> = { questions: "Questions", translation: "Translation" }

/**
 * The browser's answer to `availability()` (the documented four states), or "absent" when the browser has no such
 * API at all (Firefox, older Chrome).
 */
export type ModelAvailability = "unavailable" | "downloadable" | "downloading" | "available" | "absent"

/** Where an answer came from, shown with it. */
export type AnswerSource = "device" | "service"

export const SOURCE_LABELS: Record<AnswerSource, string> = { device: "Answered on this device", service: "Answered by Image Query AI's service" }

export type EnginePick = { engine: AnswerSource } | { refused: string }

const ON_DEVICE_ONLY = "You chose “On this device only” in Settings."

/** Why the device cannot answer now, in the person's words, for a refusal under *On this device only*. */
export function notOnDeviceMessage(capability: AiCapability, availability: ModelAvailability, reason?: string): string {
  switch (availability) {
    case "downloadable":
      return `${capability === "questions" ? "Questions about images need" : "This translation needs"} the browser's model, which is not downloaded yet: start the download in Settings. ${ON_DEVICE_ONLY}`
    case "downloading":
      return `The browser is still downloading its model: try again when Settings say “Ready”. ${ON_DEVICE_ONLY}`
    case "unavailable":
    case "absent":
      return `${capability === "questions" ? "Questions about images cannot be answered" : "This translation cannot be made"} on this device${reason ? `: ${reason}` : ""}. ${ON_DEVICE_ONLY} Choose “Automatic” to use Image Query AI's service instead.`
    case "available":
      return ""
  }
}

/**
 * The engine for one request. *Automatic* uses the device only when its model is ready ("available"): a download
 * starts only when the person asks for it in Settings, so "downloadable" and "downloading" go to our service.
 * *On this device only* refuses what the device cannot answer now, and sends nothing.
 */
export function pickEngine(choice: EngineChoice, capability: AiCapability, availability: ModelAvailability, reason?: string): EnginePick {
  if (choice === "service") return { engine: "service" }
  if (availability === "available") return { engine: "device" }
  if (choice === "auto") return { engine: "service" }
  return { refused: notOnDeviceMessage(capability, availability, reason) }
}
