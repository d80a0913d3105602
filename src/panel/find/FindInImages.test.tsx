import { cleanup, fireEvent, render, screen } from "@testing-library/react"
import { useState } from "react"
import { afterEach, describe, expect, it, vi } from "vitest"

import { ImagesSection, type ImageFilters } from "../images/ImagesSection"
import type { PanelImage } from "../images/tab-images"
import { searchableReading, type ImageReading } from "./image-search"
import type { ReadEntry } from "./use-image-reader"

afterEach(cleanup)

const image = (name: string): PanelImage => ({
  url: `https://example.test/${name}.png`,
  width: 1000,
  height: 800,
  renderedWidth: 200,
  renderedHeight: 160,
  alt: name,
  source: "img",
  mimeType: "image/png",
  frameId: 0
})
const IMAGES = ["sign", "menu", "crowd", "unread"].map(image)
const READINGS: Record<string, ImageReading> = {
  sign: { text: "Café <b>du Port</b>\nOpen daily", labels: [], faces: 0 },
  menu: { text: "CAFE MENU", labels: ["cup"], faces: 0 },
  crowd: { text: "", labels: ["person", "bench"], faces: 4 }
}

function List({ onShowOnPage = async () => true, start = () => {} }: { onShowOnPage?: (image: PanelImage) => Promise<boolean>; start?: () => void }) {
  const [filters, setFilters] = useState<ImageFilters>({ size: "any", hideSmall: true, type: "any", query: "" })
  const readings = new Map<string, ReadEntry>(
    Object.entries(READINGS).map(([name, reading]) => [image(name).url, { status: "read", searchable: searchableReading(reading) }])
  )
  return (
    <ImagesSection
      images={IMAGES}
      captured={[]}
      filters={filters}
      onFiltersChange={setFilters}
      selected={new Set()}
      onToggleSelected={() => {}}
      onClearSelection={() => {}}
      onOpen={() => {}}
      highlighted={null}
      find={{ mode: "idle", current: null, read: 3, failed: 0, total: 4, readings, start, stop: () => {}, onShowOnPage }}
    />
  )
}

const shownNames = () => [...document.querySelectorAll("li:not([hidden])")].map((item) => item.querySelector("img")!.getAttribute("alt"))
const type = (query: string) => fireEvent.change(screen.getByRole("searchbox", { name: "Find in images" }), { target: { value: query } })

describe("Find in images in the image list", () => {
  it("shows every image until words are typed, then those that show every word, with the words marked as text", () => {
    const start = vi.fn()
    render(<List start={start} />)
    expect(shownNames()).toEqual(["sign", "menu", "crowd", "unread"])
    type("cafe")
    expect(start).toHaveBeenCalledOnce()
    expect(shownNames()).toEqual(["sign", "menu"])
    expect(screen.getByTestId("image-count").textContent).toBe("2 images match")
    expect([...document.querySelectorAll("li:not([hidden]) mark")].map((mark) => mark.textContent)).toEqual(["Café", "CAFE"])
    // What the image says is text, never markup.
    expect(document.querySelector("li b")).toBeNull()
    expect(document.querySelector("li:not([hidden]) [data-testid='match-reasons']")!.textContent).toContain("<b>du Port</b>")

    type("café port")
    expect(shownNames()).toEqual(["sign"])
    type("people")
    expect(shownNames()).toEqual(["crowd"])
    expect(document.querySelector("li:not([hidden]) [data-testid='match-reasons']")!.textContent).toBe("Faces: 4 facesShow on page")
    type("")
    expect(shownNames()).toEqual(["sign", "menu", "crowd", "unread"])
    expect(document.querySelector("[data-testid='match-reasons']")).toBeNull()
  })

  it("says when no image read so far shows the words", () => {
    render(<List />)
    type("harbour")
    expect(shownNames()).toEqual([])
    expect(screen.getByText(/^No image read so far shows these words\./)).toBeTruthy()
  })

  it("asks the page to show an image, and says so when the page no longer holds it", async () => {
    const onShowOnPage = vi.fn(async () => false)
    render(<List onShowOnPage={onShowOnPage} />)
    type("menu")
    fireEvent.click(screen.getByRole("button", { name: "Show on page" }))
    expect(onShowOnPage).toHaveBeenCalledWith(expect.objectContaining({ url: image("menu").url }))
    expect(await screen.findByText("This image is no longer on the page. Press Rescan to update the list.")).toBeTruthy()
  })
})
