
export const SAMPLE_IMAGE_COUNT = 30

export const SAMPLE_IMAGE_SIZES = [800, 1024, 1200, 1600] as const

/** A sample image of the mock page: id, src, width w, height h and type. */
export interface SampleImage {
  id: string
  src: string
  w: number
  h: number
  type: SampleImageType
}

export const SAMPLE_IMAGE_TYPES = ["photo", "chart", "screenshot", "illustration"] as const
export type SampleImageType = (typeof SAMPLE_IMAGE_TYPES)[number]

export const SAMPLE_TYPE_LABELS: Record<SampleImageType, string> = {
  photo: "Photo",
  chart: "Chart",
  screenshot: "Screenshot",
  illustration: "Illustration"
}

/**
 * Widths are the sample sizes 800, 1024, 1200 and 1600 px; heights follow common aspect ratios
 * (square, 4:3, 16:9, portrait, a wide banner), so the samples span every class of the size rule,
 * including images the 'Hide small images' toggle hides.
 */
const ASPECTS = [
  [1, 1],
  [4, 3],
  [16, 9],
  [3, 4],
  [5, 2],
  [3, 2]
] as const

const PALETTES = [
  ["#3B82F6", "#1E3A8A"],
  ["#10B981", "#065F46"],
  ["#F59E0B", "#92400E"],
  ["#EC4899", "#831843"],
  ["#8B5CF6", "#4C1D95"],
  ["#0EA5E9", "#0C4A6E"]
] as const

function shapes(type: SampleImageType, w: number, h: number, seed: number): string {
  const white = (opacity: number) => `fill="#fff" fill-opacity="${opacity}"`
  switch (type) {
    case "photo":
      // A landscape: sun and hills.
      return `<circle cx="${w * 0.75}" cy="${h * 0.3}" r="${Math.min(w, h) * 0.12}" ${white(0.85)}/><path d="M0 ${h * 0.75} Q ${w * 0.3} ${h * 0.45} ${w * 0.55} ${h * 0.7} T ${w} ${h * 0.6} V ${h} H 0 Z" ${white(0.35)}/>`
    case "chart":
      return Array.from({ length: 6 }, (_, index) => {
        const barHeight = h * (0.2 + (((seed + index * 37) % 60) / 100))
        return `<rect x="${w * (0.1 + index * 0.135)}" y="${h * 0.9 - barHeight}" width="${w * 0.09}" height="${barHeight}" ${white(0.75)}/>`
      }).join("")
    case "screenshot":
      return `<rect x="${w * 0.06}" y="${h * 0.08}" width="${w * 0.88}" height="${h * 0.84}" rx="${w * 0.02}" ${white(0.9)}/><rect x="${w * 0.06}" y="${h * 0.08}" width="${w * 0.88}" height="${h * 0.1}" ${white(0.5)}/>${[0.3, 0.42, 0.54, 0.66]
        .map((y, index) => `<rect x="${w * 0.12}" y="${h * y}" width="${w * (0.6 - index * 0.1)}" height="${h * 0.05}" fill="#1F2937" fill-opacity="0.25"/>`)
        .join("")}`
    case "illustration":
      return `<circle cx="${w * 0.35}" cy="${h * 0.5}" r="${Math.min(w, h) * 0.25}" ${white(0.5)}/><rect x="${w * 0.5}" y="${h * 0.25}" width="${w * 0.3}" height="${h * 0.5}" rx="${Math.min(w, h) * 0.05}" ${white(0.7)}/>`
  }
}

/** The SVG source of one sample, drawn at its full size, as a data URL: nothing is fetched. */
function sampleSource(type: SampleImageType, w: number, h: number, index: number): string {
  const [from, to] = PALETTES[index % PALETTES.length]!
  const label = `${w} × ${h}`
  const fontSize = Math.round(Math.min(w, h) * 0.09)
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">` +
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>` +
    `<rect width="${w}" height="${h}" fill="url(#g)"/>${shapes(type, w, h, index * 17)}` +
    `<text x="${w * 0.05}" y="${h - fontSize * 0.6}" font-family="Inter, sans-serif" font-weight="700" font-size="${fontSize}" fill="#fff">${label}</text></svg>`
  return `data:image/svg+xml,${encodeURIComponent(svg)}`
}

/** The page's 30 samples, the same on every visit. */
export function generateSampleImages(count = SAMPLE_IMAGE_COUNT): SampleImage[] {
  return Array.from({ length: count }, (_, index) => {
    const w = SAMPLE_IMAGE_SIZES[index % SAMPLE_IMAGE_SIZES.length]!
    const [across, down] = ASPECTS[index % ASPECTS.length]!
    const h = Math.round((w * down) / across)
    const type = SAMPLE_IMAGE_TYPES[Math.floor(index / 3) % SAMPLE_IMAGE_TYPES.length]!
    return { id: `sample-${index + 1}`, src: sampleSource(type, w, h, index), w, h, type }
  })
}
