// The side panel's image list (src/panel/images/ImagesSection.tsx) with Find in images, alone in a page, for
// bench/find-in-images.ts: `mount` renders it with `count` images already read (synthetic readings: lines of words,
// object labels, faces), as the panel would after reading them, so the bench can type into the box and time how
// long each keystroke takes to give the filtered list.
import { useState } from "react"
import { createRoot } from "react-dom/client"

import { searchableReading, type ImageReading } from "~panel/find/image-search"
import type { ReadEntry } from "~panel/find/use-image-reader"
import { ImagesSection, type ImageFilters } from "~panel/images/ImagesSection"
import type { PanelImage } from "~panel/images/tab-images"

const WORDS = (
  "harbour market bread museum station parking sunday tours daily lighthouse coffee garden river bridge castle " +
  "church school street avenue square festival concert theatre cinema library bakery pharmacy hospital hotel " +
  "restaurant menu price sale open closed entrance exit north south east west ticket platform train bus taxi"
).split(" ")
const LABELS = ["person", "car", "dog", "cat", "bicycle", "boat", "chair", "cup", "bottle", "bench", "bird", "umbrella"]

/** A repeatable pseudo-random sequence: the same page every run. */
function random(seed: number) {
  let state = seed
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648
    return state / 2147483648
  }
}

function readings(count: number): ImageReading[] {
  const next = random(7)
  const pick = <T,>(list: readonly T[]) => list[Math.floor(next() * list.length)]!
  return Array.from({ length: count }, () => {
    const lines = Array.from({ length: 1 + Math.floor(next() * 6) }, () => Array.from({ length: 2 + Math.floor(next() * 5) }, () => pick(WORDS).toUpperCase()).join(" "))
    const labels = [...new Set(Array.from({ length: Math.floor(next() * 4) }, () => pick(LABELS)))]
    return { text: next() < 0.3 ? "" : lines.join("\n"), labels, faces: labels.includes("person") ? 1 + Math.floor(next() * 3) : 0 }
  })
}

export function mount(container: HTMLElement, count: number, imageBase: string): void {
  const images: PanelImage[] = Array.from({ length: count }, (_, index) => ({
    url: `${imageBase}?i=${index}`,
    width: 1000,
    height: 800,
    renderedWidth: 200,
    renderedHeight: 160,
    alt: `Image ${index}`,
    source: "img",
    mimeType: "image/png",
    frameId: 0
  }))
  const read = new Map<string, ReadEntry>(readings(count).map((reading, index) => [images[index]!.url, { status: "read", searchable: searchableReading(reading) }]))
  const find = {
    mode: "reading" as const,
    current: null,
    read: count,
    failed: 0,
    total: count,
    readings: read,
    start: () => {},
    stop: () => {},
    onShowOnPage: async () => true
  }
  function List() {
    const [filters, setFilters] = useState<ImageFilters>({ size: "any", hideSmall: true, type: "any", query: "" })
    return (
      <ImagesSection
        images={images}
        captured={[]}
        filters={filters}
        onFiltersChange={setFilters}
        selected={new Set()}
        onToggleSelected={() => {}}
        onClearSelection={() => {}}
        onOpen={() => {}}
        highlighted={null}
        find={find}
      />
    )
  }
  createRoot(container).render(<List />)
}
