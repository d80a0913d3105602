/**
 * The side panel's sections as radix Tabs (as on the site's Image Query AI page): the bottom bar of their triggers
 * (ARIA's tablist and tabs) and each section's panel. Radix moves between them with the arrow keys, Home and End; the
 * ids stay ours (panel-tab-*, panel-tabpanel-*), which the end-to-end tests select on.
 */
import type { ReactNode } from "react"
import { Tabs } from "radix-ui"

export const PANEL_SECTIONS = ["images", "chat", "history", "settings"] as const
export type PanelSection = (typeof PANEL_SECTIONS)[number]

export const PANEL_SECTION_LABELS: Record<PanelSection, string> = { images: "Images", chat: "Chat", history: "History", settings: "Settings" }

export const triggerId = (section: PanelSection) => `panel-tab-${section}`
export const sectionPanelId = (section: PanelSection) => `panel-tabpanel-${section}`

const isPanelSection = (value: string): value is PanelSection => (PANEL_SECTIONS as readonly string[]).includes(value)

/** The sections' root, as the panel's outermost element (`children`: the bar and the panels, wherever they sit in it). */
export function PanelSections({ current, onChange, className, children }: { current: PanelSection; onChange: (section: PanelSection) => void; className: string; children: ReactNode }) {
  return (
    <Tabs.Root value={current} onValueChange={(value) => isPanelSection(value) && onChange(value)} className={className}>
      {children}
    </Tabs.Root>
  )
}

/** The bottom bar: a trigger per section. */
export function SectionBar({ current }: { current: PanelSection }) {
  return (
    <nav className="fixed-bottom-bar fixed inset-x-0 bottom-0 border-t border-gray-200 bg-white">
      <Tabs.List aria-label="Side panel sections" className="grid grid-cols-4">
        {PANEL_SECTIONS.map((section) => (
          <Tabs.Trigger
            key={section}
            value={section}
            id={triggerId(section)}
            aria-controls={sectionPanelId(section)}
            className={`py-3 text-sm font-medium focus-ring focus-visible:-outline-offset-2 ${
              section === current ? "border-t-2 border-blue-600 text-blue-700" : "border-t-2 border-transparent text-gray-600 hover:text-brand-secondary"
            }`}
          >
            {PANEL_SECTION_LABELS[section]}
          </Tabs.Trigger>
        ))}
      </Tabs.List>
    </nav>
  )
}

/** One section's panel, shown while it is the current one. */
export function SectionPanel({ section, children }: { section: PanelSection; children: ReactNode }) {
  return (
    <Tabs.Content value={section} id={sectionPanelId(section)} aria-labelledby={triggerId(section)} className="focus-ring focus-visible:-outline-offset-2">
      {children}
    </Tabs.Content>
  )
}
