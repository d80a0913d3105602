import { useState, type FormEvent } from "react"

import { VQA_MODELS } from "~core/analysis/vqa"

import { parseApiOrigin } from "~extension/site-link/api-origin"

import { AiEngineSettings } from "../ai/AiEngineSettings"
import { OcrLanguagePicker } from "./OcrLanguagePicker"
import { PageTranslationSettingsSection } from "../page-translation/PageTranslationSettings"
import { SentLedgerSection } from "../sent/SentLedgerSection"
import { ShortcutsSettings } from "./ShortcutsSettings"
import { ANALYSIS_KINDS, ANALYSIS_LABELS, type DefaultAnalysis, type PanelSettings } from "./settings"

const fieldClass =
  "mt-1 block w-full rounded-md border border-gray-300 bg-white px-2 py-1.5 text-sm focus:border-brand-primary focus:outline-none focus:ring-2 focus:ring-brand-primary/30"

export const ADDRESS_CHANGED_MESSAGE = "Saved. You are signed out of the previous service: sign in to this one."

export interface SettingsSectionProps {
  settings: PanelSettings
  onChange: (settings: PanelSettings) => void
  apiOrigin: string
  /** Signs the extension out of the current service first (see changeApiOrigin). */
  onApiOriginChange: (origin: string) => Promise<void>
}

export function SettingsSection({ settings, onChange, apiOrigin, onApiOriginChange }: SettingsSectionProps) {
  const [address, setAddress] = useState(apiOrigin)
  const [addressMessage, setAddressMessage] = useState<{ error: boolean; text: string } | null>(null)

  const saveAddress = (event: FormEvent) => {
    event.preventDefault()
    const parsed = parseApiOrigin(address)
    if (!parsed.ok) {
      setAddressMessage({ error: true, text: parsed.error })
      return
    }
    const changed = parsed.origin !== apiOrigin
    void onApiOriginChange(parsed.origin).then(() => {
      setAddress(parsed.origin)
      setAddressMessage({ error: false, text: changed ? ADDRESS_CHANGED_MESSAGE : "Saved." })
    })
  }

  return (
    <div className="space-y-4">
      <h1 className="text-base font-semibold">Settings</h1>
      <section className="space-y-3 rounded-lg border border-gray-200 bg-white p-3">
        <label className="block text-sm font-medium">
          Default analysis
          <select className={fieldClass} value={settings.defaultAnalysis} onChange={(event) => onChange({ ...settings, defaultAnalysis: event.target.value as DefaultAnalysis })}>
            {ANALYSIS_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {ANALYSIS_LABELS[kind]}
              </option>
            ))}
            <option value="none">None: choose each time</option>
          </select>
          <span className="mt-1 block text-xs font-normal text-gray-500">Runs when you pick an image with the on-image button or “Analyse image”.</span>
        </label>
        <label className="block text-sm font-medium">
          Vision model
          <select className={fieldClass} value={settings.model} onChange={(event) => onChange({ ...settings, model: event.target.value as PanelSettings["model"] })}>
            {VQA_MODELS.map((model) => (
              <option key={model} value={model}>
                {model}
              </option>
            ))}
          </select>
        </label>
        <div className="space-y-1">
          <p className="text-sm font-medium">Text (OCR) languages</p>
          <OcrLanguagePicker
            value={settings.ocrLanguages}
            onChange={(ocrLanguages) => onChange({ ...settings, ocrLanguages })}
            detect={settings.ocrDetectLanguage}
            onDetectChange={(ocrDetectLanguage) => onChange({ ...settings, ocrDetectLanguage })}
          />
        </div>
        <fieldset className="text-sm">
          <legend className="font-medium">Faces</legend>
          <label className="mt-1 flex items-center gap-2">
            <input type="checkbox" checked={settings.faceAttributes} onChange={(event) => onChange({ ...settings, faceAttributes: event.target.checked })} className="accent-brand-primary" />
            Estimate age, gender and expression
          </label>
        </fieldset>
      </section>
      <AiEngineSettings settings={settings} onChange={onChange} />
      <form onSubmit={saveAddress} className="space-y-2 rounded-lg border border-gray-200 bg-white p-3" noValidate>
        <label htmlFor="api-address" className="block text-sm font-medium">
          Service address
        </label>
        <div className="flex gap-2">
          <input id="api-address" value={address} onChange={(event) => setAddress(event.target.value)} className={`${fieldClass} mt-0`} inputMode="url" aria-describedby="api-address-message" />
          <button type="submit" className="rounded-md bg-blue-600 px-3 text-sm font-semibold text-white focus-ring focus-visible:outline-offset-2">
            Save
          </button>
        </div>
        <p id="api-address-message" role={addressMessage?.error ? "alert" : "status"} className={`text-xs ${addressMessage?.error ? "text-red-700" : "text-gray-500"}`}>
          {addressMessage?.text ?? "The Image Query AI service the extension signs in to and asks the vision model through."}
        </p>
      </form>
      <PageTranslationSettingsSection />
      <ShortcutsSettings />
      <SentLedgerSection />
    </div>
  )
}
