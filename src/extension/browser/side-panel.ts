/**
 * The extension's panel in either browser: Chrome's side panel (chrome.sidePanel) or, in Firefox, the sidebar
 * (sidebarAction, declared by Plasmo's firefox-mv3 build as sidebar_action with the same page). Both must be opened
 * from the user's gesture, synchronously: call these before awaiting anything.
 *
 * Firefox counts only its own surfaces as user actions (the toolbar button, its menus, its keyboard commands, clicks in
 * the extension's pages), never a click in a web page: the on-image button cannot open the sidebar there. When the
 * sidebar refuses and is not open already (an open sidebar shows the new selection by itself), the panel opens in a
 * small window of its own beside the page, pinned to the page's tab (PANEL_TAB_PARAMETER), so the button still
 * brings the analysis up with one click.
 */
interface SidebarAction {
  open(): Promise<void>
  toggle(): Promise<void>
  isOpen(details: { windowId?: number }): Promise<boolean>
}

/** sidepanel.html?tab=<id>: a panel shown in a window of its own scans this tab, not its own window's. */
export const PANEL_TAB_PARAMETER = "tab"
const PANEL_WINDOW_WIDTH = 420

/** Firefox's sidebar API, when this browser has one (Chrome has none). */
export function firefoxSidebar(): SidebarAction | undefined {
  return (globalThis as { browser?: { sidebarAction?: SidebarAction } }).browser?.sidebarAction
}

/** Opens the panel in a window beside the tab's window, showing that tab. */
async function openPanelWindow(tabId: number, windowId: number): Promise<void> {
  const beside = await chrome.windows.get(windowId)
  const left = (beside.left ?? 0) + Math.max((beside.width ?? PANEL_WINDOW_WIDTH) - PANEL_WINDOW_WIDTH, 0)
  await chrome.windows.create({
    url: chrome.runtime.getURL(`sidepanel.html?${PANEL_TAB_PARAMETER}=${tabId}`),
    type: "popup",
    width: PANEL_WINDOW_WIDTH,
    height: beside.height,
    left,
    top: beside.top
  })
}

/** Opens the panel: Chrome's for the tab or window given, Firefox's sidebar in the window of the gesture. */
export function openPanel(target: { tabId: number } | { windowId: number }): Promise<void> {
  const sidebar = firefoxSidebar()
  if (!sidebar) return chrome.sidePanel.open(target as chrome.sidePanel.OpenOptions)
  return sidebar.open().catch(async (error: unknown) => {
    if (!("tabId" in target)) throw error
    const { windowId } = await chrome.tabs.get(target.tabId)
    if (!(await sidebar.isOpen({ windowId }))) await openPanelWindow(target.tabId, windowId)
  })
}

/** The tab a panel opened in a window of its own is pinned to (PANEL_TAB_PARAMETER), if this panel is one. */
export function pinnedPanelTab(search: string = globalThis.location?.search ?? ""): number | undefined {
  const raw = new URLSearchParams(search).get(PANEL_TAB_PARAMETER)
  const value = raw === null || raw === "" ? NaN : Number(raw)
  return Number.isInteger(value) && value >= 0 ? value : undefined
}
