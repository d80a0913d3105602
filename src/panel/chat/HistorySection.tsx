/**
 * The History section: the analyses kept on this computer, newest first, each opening to its full result (a radix
 * Accordion: one entry open at a time, arrow keys move between entries).
 */
import { Accordion } from "radix-ui"

import type { HistoryEntry } from "./history"
import { ANALYSIS_LABELS } from "../settings/settings"
import { isOwnBlobUrl, ShownImage } from "../images/ShownImage"

export function HistorySection({ entries, onClear }: { entries: HistoryEntry[]; onClear: () => void }) {
  if (entries.length === 0) {
    return <p className="rounded-lg bg-white p-4 text-sm text-gray-600 shadow-sm">No analyses yet. Results you get are kept here, on this computer only.</p>
  }
  return (
    <div className="space-y-3">
      <div className="flex items-center justify-between">
        <h1 className="text-base font-semibold">History</h1>
        <button type="button" onClick={onClear} className="rounded-md border border-gray-300 px-2 py-1 text-sm font-medium hover:bg-gray-50 focus-ring">
          Clear history
        </button>
      </div>
      <Accordion.Root type="single" collapsible asChild>
        <ul className="space-y-2" aria-label="Past analyses">
          {entries.map((entry) => (
            <Accordion.Item key={entry.id} value={entry.id} asChild>
              <li className="rounded-lg border border-gray-200 bg-white">
                <Accordion.Header asChild>
                  <h2>
                    <Accordion.Trigger className="flex w-full gap-3 p-2 text-left focus-ring focus-visible:-outline-offset-2">
                      {/^https?:/.test(entry.imageUrl) || isOwnBlobUrl(entry.imageUrl) ? (
                        <ShownImage image={{ url: entry.imageUrl, pageUrl: entry.pageUrl }} loading="lazy" brief alt="" className="h-12 w-12 shrink-0 rounded bg-gray-100 object-cover" />
                      ) : (
                        // A data: image is kept as a marker, and a page's blob: image went with its page.
                        <span className="h-12 w-12 shrink-0 rounded bg-gray-100" aria-hidden="true" />
                      )}
                      <span className="min-w-0 flex-1">
                        <span className="block text-xs text-gray-500">
                          {ANALYSIS_LABELS[entry.kind]} · {new Date(entry.at).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short" })}
                        </span>
                        <span className="block truncate text-sm">{entry.summary}</span>
                      </span>
                    </Accordion.Trigger>
                  </h2>
                </Accordion.Header>
                <Accordion.Content className="space-y-1 border-t border-gray-100 p-3 text-sm">
                  {entry.question && <p className="text-xs font-medium text-gray-600">Question: {entry.question}</p>}
                  <p className="whitespace-pre-wrap">{entry.detail || entry.summary}</p>
                  <p className="truncate text-xs text-gray-500" title={entry.imageUrl}>
                    {entry.imageUrl}
                  </p>
                </Accordion.Content>
              </li>
            </Accordion.Item>
          ))}
        </ul>
      </Accordion.Root>
    </div>
  )
}
