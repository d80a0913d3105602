import { fireEvent, render, screen, waitFor, within } from "@testing-library/react"
import { MemoryRouter } from "react-router"
import { describe, expect, it } from "vitest"

import { filterImagesBySize, isHiddenAsSmall, sizeClassOf } from "~core/images/image-size"
import { SAMPLE_IMAGE_SIZES } from "~site/image-query/sample-images"

import ImageQueryPage from "./ImageQueryPage"
import { generateSampleImages } from "./sample-images"

const samples = generateSampleImages()
const dims = samples.map((image) => ({ ...image, width: image.w, height: image.h }))

function renderPage() {
  render(
    <MemoryRouter>
      <ImageQueryPage />
    </MemoryRouter>
  )
}

const shownCount = () => within(screen.queryByRole("list", { name: "Sample images" }) ?? document.createElement("ul")).queryAllByRole("listitem").length

describe("the sample images", () => {
  it("are 30 generated SVGs whose widths are the sample sizes, spanning every size class", () => {
    expect(samples).toHaveLength(30)
    for (const image of samples) {
      expect(image.src.startsWith("data:image/svg+xml,")).toBe(true)
      expect(SAMPLE_IMAGE_SIZES).toContain(image.w)
      expect(decodeURIComponent(image.src)).toContain(`width="${image.w}" height="${image.h}"`)
    }
    const classes = new Set(dims.map((image) => sizeClassOf({ width: image.width, height: image.height })))
    expect(classes).toEqual(new Set(["small", "medium", "large"]))
    expect(dims.some((image) => isHiddenAsSmall(image))).toBe(true)
  })
})

describe("the Image Query AI page", () => {
  it("starts with the default controls and hides small images", () => {
    renderPage()
    expect((screen.getByLabelText("Model") as HTMLSelectElement).value).toBe("gpt-4o-mini")
    expect((screen.getByLabelText("Query") as HTMLSelectElement).value).toBe("Normal")
    expect((screen.getByLabelText("Size") as HTMLSelectElement).value).toBe("any")
    expect((screen.getByLabelText("Type") as HTMLSelectElement).value).toBe("any")
    expect(screen.getByRole("switch", { name: "Hide small images" }).getAttribute("aria-checked")).toBe("true")
    const expected = filterImagesBySize(dims, { size: "any", hideSmall: true }).length
    expect(expected).toBeLessThan(30)
    expect(shownCount()).toBe(expected)
  })

  it("filters by the core size rule and the small-image toggle", () => {
    renderPage()
    fireEvent.click(screen.getByRole("switch", { name: "Hide small images" }))
    expect(shownCount()).toBe(30)
    for (const size of ["small", "medium", "large"] as const) {
      fireEvent.change(screen.getByLabelText("Size"), { target: { value: size } })
      expect(shownCount(), size).toBe(filterImagesBySize(dims, { size, hideSmall: false }).length)
      expect(shownCount(), size).toBeGreaterThan(0)
    }
    fireEvent.change(screen.getByLabelText("Size"), { target: { value: "small" } })
    fireEvent.click(screen.getByRole("switch", { name: "Hide small images" }))
    expect(shownCount()).toBe(filterImagesBySize(dims, { size: "small", hideSmall: true }).length)
  })

  it("keeps the All, Linked, Inline and Ask buttons inert", () => {
    renderPage()
    const before = screen.getByRole("status").textContent
    for (const name of ["All", "Linked", "Inline", "Ask about selected"]) {
      const button = screen.getByRole("button", { name })
      expect(button.getAttribute("aria-disabled")).toBe("true")
      fireEvent.click(button)
    }
    expect(screen.getByRole("status").textContent).toBe(before)
  })

  it("has the Images, Chat, History and Settings tabs, the last three placeholders", async () => {
    renderPage()
    expect(screen.getAllByRole("tab").map((tab) => tab.textContent)).toEqual(["Images", "Chat", "History", "Settings"])
    // Radix selects a tab on the pointer's press, as a real click begins.
    fireEvent.mouseDown(screen.getByRole("tab", { name: "Chat" }))
    expect(screen.getByRole("tab", { name: "Chat" }).getAttribute("aria-selected")).toBe("true")
    expect(screen.getByRole("tabpanel").textContent).toMatch(/This preview has no chat/)
    // Radix moves the focus on the next tick; the focused tab is selected.
    fireEvent.keyDown(screen.getByRole("tab", { name: "Chat" }), { key: "ArrowRight" })
    await waitFor(() => expect(screen.getByRole("tabpanel").textContent).toMatch(/keeps no history/))
  })

  it("points to the extension", () => {
    renderPage()
    expect(screen.getByText(/The real Image Query AI lives in the browser extension/)).toBeTruthy()
    expect(screen.getByRole("link", { name: "Get the extension" }).getAttribute("href")).toBe("/register")
  })
})
