/**
 * The side panel's sections as radix Tabs (as on the site's Image Query AI page): the bottom tab bar and each
 * section's panel. Radix moves between tabs with the arrow keys, Home and End; the ids stay ours, which the
 * end-to-end tests select on.
 */
import type { ReactNode } from "react"
import { Tabs } from "radix-ui"

export const PANEL_TABS = ["images", "chat", "history", "settings"] as const
export type PanelTab = (typeof PANEL_TABS)[number]

export const PANEL_TAB_LABELS: Record<PanelTab, string> = { images: "Images", chat: "Chat", history: "History", settings: "Settings" }

export const tabId = (tab: PanelTab) => `panel-tab-${tab}`
export const tabPanelId = (tab: PanelTab) => `panel-tabpanel-${tab}`

const isPanelTab = (value: string): value is PanelTab => (PANEL_TABS as readonly string[]).includes(value)

/** The tabs' root, as the panel's outermost element (`children`: the bar and the panels, wherever they sit in it). */
export function PanelTabs({ current, onChange, className, children }: { current: PanelTab; onChange: (tab: PanelTab) => void; className: string; children: ReactNode }) {
  return (
    <Tabs.Root value={current} onValueChange={(value) => isPanelTab(value) && onChange(value)} className={className}>
      {children}
    </Tabs.Root>
  )
}

/** The bottom tab bar. */
export function TabBar({ current }: { current: PanelTab }) {
  return (
    <nav className="fixed-bottom-bar fixed inset-x-0 bottom-0 border-t border-gray-200 bg-white">
      <Tabs.List aria-label="Side panel sections" className="grid grid-cols-4">
        {PANEL_TABS.map((tab) => (
          <Tabs.Trigger
            key={tab}
            value={tab}
            id={tabId(tab)}
            aria-controls={tabPanelId(tab)}
            className={`py-3 text-sm font-medium focus-ring focus-visible:-outline-offset-2 ${
              tab === current ? "border-t-2 border-blue-600 text-blue-700" : "border-t-2 border-transparent text-gray-600 hover:text-brand-secondary"
            }`}
          >
            {PANEL_TAB_LABELS[tab]}
          </Tabs.Trigger>
        ))}
      </Tabs.List>
    </nav>
  )
}

/** One section's panel, shown while its tab is the current one. */
export function TabPanel({ tab, children }: { tab: PanelTab; children: ReactNode }) {
  return (
    <Tabs.Content value={tab} id={tabPanelId(tab)} aria-labelledby={tabId(tab)} className="focus-ring focus-visible:-outline-offset-2">
      {children}
    </Tabs.Content>
  )
}
