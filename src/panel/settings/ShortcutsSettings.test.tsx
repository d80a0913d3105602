import { fireEvent, render, screen, waitFor } from "@testing-library/react"
import { afterEach, describe, expect, it, vi } from "vitest"

import { SHORTCUTS_PAGE_URL, ShortcutsSettings } from "./ShortcutsSettings"

afterEach(() => vi.unstubAllGlobals())

const COMMANDS: chrome.commands.Command[] = [
  { name: "toggle-side-panel", description: "Open or close the Image Query AI side panel", shortcut: "Alt+Shift+Q" },
  { name: "capture-area", description: "Capture an area of the page to analyse", shortcut: "" }
]

describe("the keyboard shortcuts in Settings", () => {
  it("lists each command with its current keys, 'Not set' when it has none", async () => {
    render(<ShortcutsSettings commands={{ getAll: () => Promise.resolve(COMMANDS) }} tabs={{ create: vi.fn() }} />)
    const list = await screen.findByTestId("shortcut-list")
    await waitFor(() => expect(list.querySelectorAll("dt")).toHaveLength(2))
    const rows = [...list.querySelectorAll("div")].map((row) => [row.querySelector("dt")?.textContent, row.querySelector("dd")?.textContent])
    expect(rows).toEqual([
      ["Open or close the Image Query AI side panel", "Alt+Shift+Q"],
      ["Capture an area of the page to analyse", "Not set"]
    ])
  })

  it("opens the browser's shortcut page in a tab (a link cannot reach chrome:// pages)", async () => {
    const create = vi.fn(() => Promise.resolve({} as chrome.tabs.Tab))
    render(<ShortcutsSettings commands={{ getAll: () => Promise.resolve(COMMANDS) }} tabs={{ create }} />)
    fireEvent.click(screen.getByRole("button", { name: "Change shortcuts in the browser" }))
    expect(create).toHaveBeenCalledWith({ url: SHORTCUTS_PAGE_URL })
  })
})
