/** Why the browser's own model failed, in the person's words (the browser's DOMException names, as documented). */
import type { AiCapability } from "./engine-choice"

export type DeviceFailure = "unavailable" | "too-large" | "download-stopped" | "unsupported" | "crashed"

/** A failure of the device's engine. `offerService`: under *Automatic*, the panel offers our service in one click. */
export class DeviceEngineError extends Error {
  override readonly name = "DeviceEngineError"
  constructor(
    message: string,
    readonly failure: DeviceFailure,
    readonly offerService = false
  ) {
    super(message)
  }

  /** The same failure, with the offer of our service (under *Automatic*). */
  withServiceOffer(): DeviceEngineError {
    return new DeviceEngineError(this.message, this.failure, true)
  }

  static from(error: unknown, capability: AiCapability): DeviceEngineError {
    if (error instanceof DeviceEngineError) return error
    const name = error instanceof DOMException || error instanceof Error ? error.name : ""
    const detail = error instanceof Error && error.message ? ` (${error.message})` : ""
    const input = capability === "questions" ? "this question and image are" : "this text is"
    switch (name) {
      case "QuotaExceededError":
        return new DeviceEngineError(`The model on this device cannot take this much at once: ${input} more than it can read.`, "too-large")
      case "AbortError":
        return new DeviceEngineError("The browser stopped downloading its model before it finished.", "download-stopped")
      case "NotAllowedError":
        return new DeviceEngineError("The browser's model is not downloaded yet: start the download in Settings.", "unavailable")
      case "NotSupportedError":
        return new DeviceEngineError(`The model on this device cannot answer this${capability === "questions" ? " image or language" : " pair of languages"}.`, "unsupported")
      default:
        return new DeviceEngineError(`The model on this device stopped with an error${detail}.`, "crashed")
    }
  }
}
