// @vitest-environment node
import { describe, expect, it, vi } from "vitest"

import { fakeEvent } from "~extension/browser/fake-chrome.test-support"

import { sidePanelToggle } from "./side-panel-toggle"

function setUp(openAtStart: number[], answerAtOnce = true) {
  const sidePanel = { open: vi.fn(() => Promise.resolve()), close: vi.fn(() => Promise.resolve()), onOpened: fakeEvent(), onClosed: fakeEvent() }
  let answer: (contexts: { windowId: number }[]) => void = () => {}
  const contexts = new Promise<{ windowId: number }[]>((resolve) => (answer = resolve))
  if (answerAtOnce) answer(openAtStart.map((windowId) => ({ windowId })))
  const runtime = { getContexts: vi.fn(() => contexts) }
  const toggle = sidePanelToggle(sidePanel as unknown as typeof chrome.sidePanel, runtime as unknown as typeof chrome.runtime)
  return { sidePanel, toggle, answer: () => answer(openAtStart.map((windowId) => ({ windowId }))) }
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 0))

describe("the side panel command", () => {
  it("opens a closed panel and closes an open one, as Chrome reports them", async () => {
    const { sidePanel, toggle } = setUp([2])
    await settled()
    await toggle(1)
    expect(sidePanel.open).toHaveBeenCalledWith({ windowId: 1 })
    await toggle(2)
    expect(sidePanel.close).toHaveBeenCalledWith({ windowId: 2 })

    sidePanel.onOpened.fire({ windowId: 1, path: "sidepanel.html" })
    sidePanel.onClosed.fire({ windowId: 2, path: "sidepanel.html" })
    sidePanel.open.mockClear()
    sidePanel.close.mockClear()
    await toggle(1)
    await toggle(2)
    expect(sidePanel.close).toHaveBeenCalledWith({ windowId: 1 })
    expect(sidePanel.open).toHaveBeenCalledWith({ windowId: 2 })
  })

  it("opens at once when woken by the command, and closes a panel that turns out to have been open", async () => {
    const { sidePanel, toggle, answer } = setUp([3], false)
    const done = toggle(3)
    // Synchronously, inside the command's gesture.
    expect(sidePanel.open).toHaveBeenCalledWith({ windowId: 3 })
    answer()
    await done
    expect(sidePanel.close).toHaveBeenCalledWith({ windowId: 3 })
  })

  it("leaves a panel it had to open open when none was", async () => {
    const { sidePanel, toggle, answer } = setUp([], false)
    const done = toggle(5)
    answer()
    await done
    expect(sidePanel.open).toHaveBeenCalledWith({ windowId: 5 })
    expect(sidePanel.close).not.toHaveBeenCalled()
  })

  it("only opens in a browser without chrome.sidePanel.close (before Chrome 141)", async () => {
    const open = vi.fn(() => Promise.resolve())
    const toggle = sidePanelToggle({ open } as unknown as typeof chrome.sidePanel, { getContexts: vi.fn() } as unknown as typeof chrome.runtime)
    await toggle(4)
    await toggle(4)
    expect(open).toHaveBeenCalledTimes(2)
  })
})
