import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react"
import { useState } from "react"
import { afterEach, describe, expect, it } from "vitest"

import type { HistoryEntry } from "./chat/history"
import { HistorySection } from "./chat/HistorySection"
import { FoundList, type FoundKind } from "./results/FoundList"
import { PanelSections, SectionBar, SectionPanel, type PanelSection } from "./SectionBar"

afterEach(cleanup)

/** The sections as the side panel composes them. */
function Tabs() {
  const [section, setSection] = useState<PanelSection>("images")
  return (
    <PanelSections current={section} onChange={setSection} className="">
      <SectionPanel section="images">Images content</SectionPanel>
      <SectionPanel section="chat">Chat content</SectionPanel>
      <SectionPanel section="history">History content</SectionPanel>
      <SectionPanel section="settings">Settings content</SectionPanel>
      <SectionBar current={section} />
    </PanelSections>
  )
}

describe("the side panel's section bar", () => {
  it("keeps the ids the end-to-end tests select on, and ties each tab to its panel", () => {
    render(<Tabs />)
    const images = document.getElementById("panel-tab-images")!
    expect(images.getAttribute("role")).toBe("tab")
    expect(images.getAttribute("aria-selected")).toBe("true")
    expect(images.getAttribute("aria-controls")).toBe("panel-tabpanel-images")
    const panel = screen.getByRole("tabpanel")
    expect(panel.id).toBe("panel-tabpanel-images")
    expect(panel.getAttribute("aria-labelledby")).toBe("panel-tab-images")
    expect(panel.textContent).toBe("Images content")
    expect(screen.getByRole("tablist", { name: "Side panel sections" })).toBeTruthy()
  })

  it("shows the tab pressed", () => {
    render(<Tabs />)
    fireEvent.mouseDown(screen.getByRole("tab", { name: "History" }))
    expect(document.getElementById("panel-tab-history")!.getAttribute("aria-selected")).toBe("true")
    expect(screen.getByRole("tabpanel").textContent).toBe("History content")
  })

  it("moves between tabs with the arrow keys, Home and End, round from the last to the first", async () => {
    render(<Tabs />)
    const press = async (key: string, expected: string) => {
      fireEvent.keyDown(document.activeElement!, { key })
      await waitFor(() => expect(document.activeElement?.id).toBe(expected))
      expect(document.activeElement?.getAttribute("aria-selected")).toBe("true")
    }
    act(() => document.getElementById("panel-tab-images")!.focus())
    await press("ArrowRight", "panel-tab-chat")
    await press("End", "panel-tab-settings")
    await press("ArrowRight", "panel-tab-images")
    await press("ArrowLeft", "panel-tab-settings")
    await press("Home", "panel-tab-images")
    expect(screen.getByRole("tabpanel").textContent).toBe("Images content")
  })
})

describe("the history section", () => {
  const entry = (id: string, summary: string): HistoryEntry => ({ id, kind: "text", imageUrl: `https://example.com/${id}.png`, summary, detail: `${summary}, in full`, at: 0 })

  it("opens one entry at a time to its full result", () => {
    render(<HistorySection entries={[entry("a", "First"), entry("b", "Second")]} onClear={() => {}} />)
    const [first, second] = screen.getAllByRole("button", { expanded: false })
    fireEvent.click(first!)
    expect(first!.getAttribute("aria-expanded")).toBe("true")
    expect(screen.getByText("First, in full")).toBeTruthy()
    fireEvent.click(second!)
    expect(first!.getAttribute("aria-expanded")).toBe("false")
    expect(screen.queryByText("First, in full")).toBeNull()
    expect(screen.getByText("Second, in full")).toBeTruthy()
    fireEvent.click(second!)
    expect(screen.queryByText("Second, in full")).toBeNull()
  })
})

describe("a detector's found list", () => {
  it("shows the count and the list, or only what to say when nothing was found", () => {
    const things: FoundKind<string> = {
      label: "Things found",
      count: { one: "thing", many: "things", none: "Nothing here.", testId: "count" },
      list: { label: "Things", className: "" },
      item: (thing) => thing
    }
    const { rerender } = render(<FoundList kind={things} items={["a cup", "a chair"]} />)
    expect(screen.getByTestId("count").textContent).toBe("2 things found")
    expect(screen.getByRole("list", { name: "Things" }).textContent).toBe("a cupa chair")
    rerender(<FoundList kind={things} items={[]} />)
    expect(screen.getByTestId("count").textContent).toBe("Nothing here.")
    expect(screen.queryByRole("list", { name: "Things" })).toBeNull()
  })
})
