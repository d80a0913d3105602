/**
 * Settings → Sent from this device: every request the extension made to our server in the last 30 days, newest
 * first (when, what, how much of the user's content, from which page's host), kept on this device only, with Clear.
 */
import { useId } from "react"

import { PRODUCT_NAME } from "~core/company"

import { clearSentLedger, SENT_KIND_LABELS, SENT_LEDGER_LIMIT, sentLedgerItem, type SentEntry } from "~extension/account/sent-ledger"
import { useStorageItem } from "~extension/storage/use-storage-item"
import { ConfirmDialog } from "~ui/ConfirmDialog"

import { kilobytes } from "./SendNotice"

const smallButton = "rounded-md border border-gray-300 px-2 py-1 text-xs font-medium hover:bg-gray-50 focus-ring"

/** "120 KB image + 34 characters", "1,234 characters", or "No content" for a request that carries none of the user's. */
export function sentSizeText({ imageBytes, textChars }: Pick<SentEntry, "imageBytes" | "textChars">): string {
  const parts = [
    imageBytes === undefined ? null : `${kilobytes(imageBytes)} image`,
    textChars === undefined ? null : `${textChars.toLocaleString("en")} ${textChars === 1 ? "character" : "characters"}`
  ].filter((part) => part !== null)
  return parts.length ? parts.join(" + ") : "No content"
}

const timeText = (at: number) => new Date(at).toLocaleString("en-GB", { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" })

export function SentLedgerSection() {
  const [entries] = useStorageItem(sentLedgerItem)
  const headingId = useId()
  return (
    <section aria-labelledby={headingId} className="space-y-2 rounded-lg border border-gray-200 bg-white p-3" data-testid="sent-ledger">
      <div className="flex items-center justify-between gap-2">
        <h2 id={headingId} className="text-sm font-medium">
          Sent from this device
        </h2>
        {entries !== undefined && entries.length > 0 && (
          <ConfirmDialog
            trigger={{ label: "Clear", className: smallButton }}
            title="Clear this record?"
            description="The list of what the extension sent is removed from this device. Nothing changes on the server."
            confirm={{ label: "Clear", busyLabel: "Clearing…" }}
            onConfirm={async (close) => {
              try {
                await clearSentLedger()
                close()
                return null
              } catch {
                return "The record could not be cleared. Try again."
              }
            }}
          />
        )}
      </div>
      <p className="text-xs text-gray-500">
        Every request the extension made to the {PRODUCT_NAME} service in the last 30 days (the latest {SENT_LEDGER_LIMIT}), newest first. This list stays on this
        device.
      </p>
      {entries === undefined ? null : entries.length === 0 ? (
        <p className="text-sm text-gray-600">Nothing sent in the last 30 days. Questions, translations, language packs and sign-ins will be listed here.</p>
      ) : (
        // Focusable, so that the list can be scrolled from the keyboard.
        <div tabIndex={0} role="region" aria-label="Requests sent" className="max-h-80 overflow-y-auto rounded-md border border-gray-100 focus-ring">
          <table className="w-full table-fixed text-left text-xs">
            <thead className="sticky top-0 bg-gray-50 text-gray-600">
              <tr>
                <th scope="col" className="w-[27%] px-2 py-1 font-medium">
                  When
                </th>
                <th scope="col" className="w-[37%] px-2 py-1 font-medium">
                  What was sent
                </th>
                <th scope="col" className="px-2 py-1 font-medium">
                  Page
                </th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry, index) => (
                <tr key={`${entry.at}-${index}`} className="border-t border-gray-100 align-top" data-kind={entry.kind}>
                  <td className="px-2 py-1 tabular-nums text-gray-600">{timeText(entry.at)}</td>
                  <td className="px-2 py-1">
                    <span className="block font-medium">{SENT_KIND_LABELS[entry.kind]}</span>
                    {entry.detail && <span className="block text-gray-600 [overflow-wrap:anywhere]">{entry.detail}</span>}
                    <span className="block text-gray-600">{sentSizeText(entry)}</span>
                  </td>
                  <td className="px-2 py-1 text-gray-600 [overflow-wrap:anywhere]">{entry.host ?? "No page"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  )
}
