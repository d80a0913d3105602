import { useId } from "react"

import { translateLanguage } from "~core/analysis/translate"
import { ProgressLine } from "~ui/ProgressLine"

import type { PanelSettings } from "../settings/settings"
import { startDownload } from "./downloads"
import { CAPABILITY_LABELS, ENGINE_CHOICE_LABELS, ENGINE_CHOICES, type AiCapability, type EngineChoice } from "./engine-choice"
import { settingsPair, statusText, useEngineStatus } from "./engine-status"

/** The pair Settings check, by name: "English → French". */
const pairNames = () => {
  const { sourceLanguage, targetLanguage } = settingsPair()
  const name = (code: string) => translateLanguage(code === "zh" ? "zh-Hans" : code)?.name ?? code
  return `${name(sourceLanguage)} → ${name(targetLanguage)}`
}

const SETTING_OF = { questions: "questionsEngine", translation: "translationEngine" } as const satisfies Record<AiCapability, keyof PanelSettings>

const CAPABILITY_HINTS: Record<AiCapability, string> = { questions: "Ask, Scene and Chat", translation: "Translate, Translate image and translating the page's images" }

const fieldClass =
  "mt-1 block w-full rounded-md border border-gray-300 bg-white px-2 py-1.5 text-sm focus:border-brand-primary focus:outline-none focus:ring-2 focus:ring-brand-primary/30"

/** One capability: the engine chosen, and the browser's model's state in words, with Download when it needs one. */
function EngineSetting({ capability, choice, onChoice }: { capability: AiCapability; choice: EngineChoice; onChoice: (choice: EngineChoice) => void }) {
  const selectId = useId()
  const status = useEngineStatus(capability)
  const download = status?.download
  const downloading = download?.status === "downloading" || status?.availability === "downloading"
  const stateText = status ? statusText(capability, status) : "Checking…"
  return (
    <div className="space-y-1" data-testid={`engine-${capability}`}>
      <label htmlFor={selectId} className="block text-sm font-medium">
        {CAPABILITY_LABELS[capability]} <span className="font-normal text-gray-500">({CAPABILITY_HINTS[capability]})</span>
      </label>
      <select id={selectId} className={fieldClass} value={choice} onChange={(event) => onChoice(event.target.value as EngineChoice)}>
        {ENGINE_CHOICES.map((option) => (
          <option key={option} value={option}>
            {ENGINE_CHOICE_LABELS[option]}
          </option>
        ))}
      </select>
      <p className="text-xs text-gray-600">
        This browser's model: <span data-testid={`engine-state-${capability}`}>{stateText}</span>
        {capability === "translation" && status?.availability !== "absent" && ` (checked for ${pairNames()}; other pairs when you translate)`}
      </p>
      {downloading && download?.status === "downloading" && <ProgressLine progress={{ stage: "Downloading the browser's model:", fraction: download.fraction }} />}
      {download?.status === "failed" && (
        <p role="alert" className="text-xs text-red-700">
          {download.message}
        </p>
      )}
      {status?.availability === "downloadable" && !downloading && (
        <button
          type="button"
          onClick={() => void startDownload(capability, capability === "translation" ? settingsPair() : undefined)}
          className="rounded-md border border-gray-300 bg-white px-3 py-1 text-xs font-semibold hover:bg-gray-50 focus-ring"
        >
          Download
        </button>
      )}
      {(status?.availability === "absent" || status?.availability === "unavailable") && choice === "auto" && (
        <p className="text-xs text-gray-500">Automatic uses Image Query AI's service here.</p>
      )}
    </div>
  )
}

/** Settings → AI engines: who answers questions and who translates, and what this browser's own model can do. */
export function AiEngineSettings({ settings, onChange }: { settings: PanelSettings; onChange: (settings: PanelSettings) => void }) {
  return (
    <section aria-labelledby="ai-engines-heading" className="space-y-3 rounded-lg border border-gray-200 bg-white p-3">
      <div>
        <h2 id="ai-engines-heading" className="text-sm font-semibold">
          AI engines
        </h2>
        <p className="text-xs text-gray-600">
          Automatic answers on this device when the browser's own model is ready: free, not counted in your plan, and nothing leaves the device. Otherwise Image Query AI's service answers.
        </p>
      </div>
      {(["questions", "translation"] as const).map((capability) => (
        <EngineSetting key={capability} capability={capability} choice={settings[SETTING_OF[capability]]} onChoice={(choice) => onChange({ ...settings, [SETTING_OF[capability]]: choice })} />
      ))}
    </section>
  )
}
