import { render, screen } from "@testing-library/react"
import { describe, expect, it } from "vitest"

import { BoxOverlay } from "./BoxOverlay"

const boxes = [
  { x: 10, y: 20, width: 100, height: 50, label: "person 66%" },
  { x: 200, y: 300, width: 40, height: 40 }
]

describe("BoxOverlay", () => {
  it("draws one rectangle per box in the image's pixels, and labels in the tone's colour", () => {
    render(<BoxOverlay boxes={boxes} width={1920} height={1280} tone="object" />)
    const overlay = screen.getByTestId("box-overlay")
    expect(overlay.getAttribute("viewBox")).toBe("0 0 1920 1280")
    const rects = overlay.querySelectorAll("rect")
    expect([...rects].map((rect) => [rect.getAttribute("x"), rect.getAttribute("y"), rect.getAttribute("width"), rect.getAttribute("height")])).toEqual([
      ["10", "20", "100", "50"],
      ["200", "300", "40", "40"]
    ])
    const label = overlay.querySelector("text")
    expect(label?.textContent).toBe("person 66%")
    expect(label?.getAttribute("fill")).toBe("#3b82f6")
    expect(label?.getAttribute("filter")).toBeNull()
    expect(overlay.querySelector("filter")).toBeNull()
  })

  it("puts labels on tags filled with the tone when asked, without more rectangles", () => {
    render(<BoxOverlay boxes={boxes} width={1920} height={1280} tone="face" labelStyle="tag" />)
    const overlay = screen.getByTestId("box-overlay")
    expect(overlay.querySelectorAll("rect")).toHaveLength(2)
    const filter = overlay.querySelector("filter")
    expect(filter?.querySelector("feFlood")?.getAttribute("flood-color")).toBe("#f59e0b")
    const label = overlay.querySelector("text")
    expect(label?.getAttribute("filter")).toBe(`url(#${filter?.id})`)
    expect(label?.getAttribute("fill")).toBe("#111827")
    expect(label?.textContent).toBe("\u00a0person 66%\u00a0")
  })

  it("draws nothing before the image's size is known or without boxes", () => {
    const { container, rerender } = render(<BoxOverlay boxes={boxes} width={0} height={0} tone="text" />)
    expect(container.innerHTML).toBe("")
    rerender(<BoxOverlay boxes={[]} width={100} height={100} tone="text" />)
    expect(container.innerHTML).toBe("")
  })
})
