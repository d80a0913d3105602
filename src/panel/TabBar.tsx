import { useRef, type KeyboardEvent } from "react"

export const PANEL_TABS = ["images", "chat", "history", "settings"] as const
export type PanelTab = (typeof PANEL_TABS)[number]

export const PANEL_TAB_LABELS: Record<PanelTab, string> = { images: "Images", chat: "Chat", history: "History", settings: "Settings" }

export const tabId = (tab: PanelTab) => `panel-tab-${tab}`
export const tabPanelId = (tab: PanelTab) => `panel-tabpanel-${tab}`

/** The bottom tab bar (as on the site's Image Query AI page): arrow keys, Home and End move between tabs. */
export function TabBar({ current, onChange }: { current: PanelTab; onChange: (tab: PanelTab) => void }) {
  const buttons = useRef(new Map<PanelTab, HTMLButtonElement>())
  const move = (event: KeyboardEvent, index: number) => {
    const last = PANEL_TABS.length - 1
    const next = { ArrowRight: index === last ? 0 : index + 1, ArrowLeft: index === 0 ? last : index - 1, Home: 0, End: last }[event.key]
    if (next === undefined) return
    event.preventDefault()
    const tab = PANEL_TABS[next]!
    onChange(tab)
    buttons.current.get(tab)?.focus()
  }
  return (
    <nav className="fixed inset-x-0 bottom-0 border-t border-gray-200 bg-white">
      <div role="tablist" aria-label="Side panel sections" className="grid grid-cols-4">
        {PANEL_TABS.map((tab, index) => {
          const selected = tab === current
          return (
            <button
              key={tab}
              ref={(element) => {
                if (element) buttons.current.set(tab, element)
                else buttons.current.delete(tab)
              }}
              id={tabId(tab)}
              type="button"
              role="tab"
              aria-selected={selected}
              aria-controls={tabPanelId(tab)}
              tabIndex={selected ? 0 : -1}
              onClick={() => onChange(tab)}
              onKeyDown={(event) => move(event, index)}
              className={`py-3 text-sm font-medium focus-ring focus-visible:-outline-offset-2 ${
                selected ? "border-t-2 border-blue-600 text-blue-700" : "border-t-2 border-transparent text-gray-600 hover:text-brand-secondary"
              }`}
            >
              {PANEL_TAB_LABELS[tab]}
            </button>
          )
        })}
      </div>
    </nav>
  )
}
