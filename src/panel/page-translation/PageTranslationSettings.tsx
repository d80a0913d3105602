/**
 * Settings' *Translate images*: the language images are translated into, the sites whose images always are, and
 * forgetting the translations kept on this device.
 */
import { useState } from "react"

import { useStorageItem } from "~extension/storage/use-storage-item"

import { forgetTranslations } from "./device-cache"
import { LanguageSelect } from "./LanguageSelect"
import { pageTranslationSettingsItem, targetLanguageOf, withAlwaysTranslate } from "./settings"

export function PageTranslationSettingsSection() {
  const [stored, save] = useStorageItem(pageTranslationSettingsItem)
  const [forgotten, setForgotten] = useState<string | null>(null)
  if (!stored) return null
  const forget = () =>
    forgetTranslations().then(
      () => setForgotten("The translations kept on this device are forgotten."),
      () => setForgotten("The translations kept on this device could not be forgotten. Try again.")
    )
  return (
    <section aria-labelledby="page-translation-settings-heading" className="space-y-3 rounded-lg border border-gray-200 bg-white p-3">
      <h2 id="page-translation-settings-heading" className="text-sm font-medium">
        Translate images
      </h2>
      <LanguageSelect stacked label="Translate images into" value={targetLanguageOf(stored)} onChange={(targetLanguage) => void save({ ...stored, targetLanguage })} />
      <div className="space-y-1 text-sm">
        <p>Always translate images on these sites</p>
        {stored.alwaysOrigins.length ? (
          <ul aria-label="Sites whose images are always translated" className="divide-y divide-gray-100 rounded-md border border-gray-100">
            {stored.alwaysOrigins.map((origin) => (
              <li key={origin} className="flex items-center justify-between gap-3 px-2 py-1">
                <span className="[overflow-wrap:anywhere]">{origin}</span>
                <button
                  type="button"
                  aria-label={`Remove ${origin}`}
                  onClick={() => void save(withAlwaysTranslate(stored, origin, false))}
                  className="shrink-0 text-xs font-semibold text-blue-700 hover:underline focus-ring"
                >
                  Remove
                </button>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-xs text-gray-600">No site yet. Tick “Always translate images on this site” in the Images tab, next to “Translate images on this page”.</p>
        )}
      </div>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <button type="button" onClick={() => void forget()} className="rounded-md border border-gray-300 px-2 py-1 text-sm font-medium hover:bg-gray-50 focus-ring">
          Forget kept translations
        </button>
        <p role="status" className="text-xs text-gray-600">
          {forgotten ?? "Translations are kept on this device for 7 days, so showing them again sends nothing."}
        </p>
      </div>
    </section>
  )
}
