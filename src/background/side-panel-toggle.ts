/**
 * The "open or close the side panel" command. chrome.sidePanel.open needs the user's gesture, which lasts only while
 * the command's listener runs: whether the panel is open in the window must be known without awaiting anything.
 * The worker therefore keeps the windows whose panel is open, from chrome.sidePanel.onOpened and onClosed, starting
 * from the panels already open when it starts (chrome.runtime.getContexts). A command that arrives before that
 * first answer (the worker was just woken by it) opens the panel, and closes it once the answer says it was open.
 */
type SidePanelApi = Pick<typeof chrome.sidePanel, "open" | "close" | "onOpened" | "onClosed">
type RuntimeApi = Pick<typeof chrome.runtime, "getContexts">

export function sidePanelToggle(sidePanel: SidePanelApi = chrome.sidePanel, runtime: RuntimeApi = chrome.runtime) {
  const warn = (error: unknown) => console.warn("Could not open or close the side panel", error)
  // chrome.sidePanel.close and its events came with Chrome 141 and 142: before them the command can only open it.
  if (typeof sidePanel.close !== "function" || !sidePanel.onOpened || !sidePanel.onClosed) {
    return (windowId: number): Promise<void> => sidePanel.open({ windowId }).catch(warn)
  }
  const openWindows = new Set<number>()
  let known = false
  const openAtStart = runtime
    .getContexts({ contextTypes: ["SIDE_PANEL" as chrome.runtime.ContextType] })
    .then((contexts) => new Set(contexts.map((context) => context.windowId)))
    .catch(() => new Set<number>())
  void openAtStart.then((windows) => {
    for (const windowId of windows) openWindows.add(windowId)
    known = true
  })
  sidePanel.onOpened.addListener(({ windowId }) => openWindows.add(windowId))
  sidePanel.onClosed.addListener(({ windowId }) => openWindows.delete(windowId))

  /** Call synchronously from the command's listener. */
  return function toggle(windowId: number): Promise<void> {
    if (known && openWindows.has(windowId)) return sidePanel.close({ windowId }).catch(warn)
    const opened = sidePanel.open({ windowId }).catch(warn)
    if (known) return opened
    return Promise.all([opened, openAtStart]).then(([, windows]) => (windows.has(windowId) ? sidePanel.close({ windowId }).catch(warn) : undefined))
  }
}
