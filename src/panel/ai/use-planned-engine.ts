import { useEffect, useState } from "react"

import { plannedEngine, type PlannedTranslation } from "./ai-engines"
import type { AiCapability, AnswerSource, EngineChoice } from "./engine-choice"

/**
 * Which engine would answer now (null while the browser is asked): the panel says what a request sends only when it
 * would go to our service, and that nothing leaves the device when the device answers.
 */
export function usePlannedEngine(capability: AiCapability, choice: EngineChoice, translation?: PlannedTranslation): AnswerSource | "refused" | null {
  const [planned, setPlanned] = useState<AnswerSource | "refused" | null>(choice === "service" ? "service" : null)
  const { text, targetLanguage = "en", sourceHint } = translation ?? {}
  useEffect(() => {
    let current = true
    void plannedEngine(capability, choice, text === undefined ? undefined : { text, targetLanguage, sourceHint }).then((engine) => current && setPlanned(engine))
    return () => {
      current = false
    }
  }, [capability, choice, text, targetLanguage, sourceHint])
  return planned
}

export const NOTHING_SENT_TEXT = { questions: "Answered on this device: the image and your question stay on it.", translation: "Translated on this device: the text stays on it." }

/** Added to the usage line when the device answers questions: its answers are not counted in the plan's quota. */
export const DEVICE_NOT_COUNTED = "answers on this device are free and not counted"
