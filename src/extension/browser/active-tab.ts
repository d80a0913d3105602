import { pinnedPanelTab } from "./side-panel"

/** The tab the panel shows: the focused window's active tab, or the tab a panel in a window of its own is pinned to. */
export async function getActiveTab(): Promise<chrome.tabs.Tab | undefined> {
  const pinned = pinnedPanelTab()
  if (pinned !== undefined) return chrome.tabs.get(pinned).catch(() => undefined)
  const [tab] = await chrome.tabs.query({ active: true, lastFocusedWindow: true })
  return tab
}
