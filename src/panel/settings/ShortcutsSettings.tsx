import { useEffect, useState } from "react"

/** Chrome's page for extension shortcuts: a web page cannot link to it, the extension opens it in a tab. */
export const SHORTCUTS_PAGE_URL = "chrome://extensions/shortcuts"

type Command = Pick<chrome.commands.Command, "name" | "description" | "shortcut">

/** The extension's keyboard commands with the keys the user has given them (chrome.commands reads the current ones). */
export function ShortcutsSettings({ commands = chrome.commands, tabs = chrome.tabs }: { commands?: Pick<typeof chrome.commands, "getAll">; tabs?: Pick<typeof chrome.tabs, "create"> }) {
  const [list, setList] = useState<Command[] | null>(null)

  useEffect(() => {
    let current = true
    void commands.getAll().then((all) => {
      if (current) setList(all.filter((command) => command.description))
    })
    return () => {
      current = false
    }
  }, [commands])

  return (
    <section aria-labelledby="shortcuts-heading" className="space-y-2 rounded-lg border border-gray-200 bg-white p-3">
      <h2 id="shortcuts-heading" className="text-sm font-medium">
        Keyboard shortcuts
      </h2>
      {list && (
        <dl className="space-y-1 text-sm" data-testid="shortcut-list">
          {list.map((command) => (
            <div key={command.name} className="flex items-center justify-between gap-3">
              <dt>{command.description}</dt>
              <dd>{command.shortcut ? <kbd className="rounded border border-gray-300 bg-gray-50 px-1.5 py-0.5 font-mono text-xs">{command.shortcut}</kbd> : <span className="text-gray-500">Not set</span>}</dd>
            </div>
          ))}
        </dl>
      )}
      <button
        type="button"
        onClick={() => void tabs.create({ url: SHORTCUTS_PAGE_URL })}
        className="text-sm font-semibold text-blue-700 hover:underline focus-ring"
      >
        Change shortcuts in the browser
      </button>
    </section>
  )
}
