/**
 * The covers the site draws for a post without an uploaded featured image: a gradient and a motif, chosen from the
 * post's id so a post keeps its cover through edits.
 */
type Motif = "scan" | "shield" | "grid" | "bubbles" | "faces" | "tiers" | "spark"
const MOTIFS: readonly Motif[] = ["spark", "scan", "shield", "grid", "bubbles", "faces", "tiers"]
const PALETTES: ReadonlyArray<{ from: string; to: string }> = [
  { from: "#3B82F6", to: "#1E3A8A" },
  { from: "#10B981", to: "#065F46" },
  { from: "#1F2937", to: "#3B82F6" },
  { from: "#6366F1", to: "#312E81" },
  { from: "#F59E0B", to: "#B45309" },
  { from: "#EC4899", to: "#9D174D" },
  { from: "#0EA5E9", to: "#0C4A6E" }
]

/** A small stable hash of the id (FNV-1a), to pick the palette and the motif. */
function hashOf(text: string): number {
  let hash = 0x811c9dc5
  for (const character of text) hash = Math.imul(hash ^ character.charCodeAt(0), 0x01000193) >>> 0
  return hash
}

/** Shapes drawn over the cover's gradient, one set per motif, on a 1200×630 canvas. */
function motifShapes(motif: Motif): string {
  const white = (opacity: number) => `fill="#fff" fill-opacity="${opacity}"`
  switch (motif) {
    case "scan":
      return [
        `<rect x="330" y="150" width="540" height="330" rx="24" ${white(0.18)}/>`,
        ...[210, 260, 310, 360, 410].map((y, index) => `<rect x="380" y="${y}" width="${440 - index * 40}" height="18" rx="9" ${white(0.7)}/>`),
        `<rect x="300" y="300" width="600" height="6" fill="#fff"/>`
      ].join("")
    case "shield":
      return `<path d="M600 110 L810 190 V330 C810 450 720 520 600 560 C480 520 390 450 390 330 V190 Z" ${white(0.2)}/><path d="M530 330 L585 385 L680 280" stroke="#fff" stroke-width="26" fill="none" stroke-linecap="round" stroke-linejoin="round"/>`
    case "grid":
      return Array.from({ length: 12 }, (_, index) => {
        const x = 270 + (index % 4) * 170
        const y = 120 + Math.floor(index / 4) * 140
        return `<rect x="${x}" y="${y}" width="150" height="120" rx="14" ${white(index % 3 === 0 ? 0.55 : 0.2)}/>`
      }).join("")
    case "bubbles":
      return `<rect x="260" y="150" width="420" height="150" rx="40" ${white(0.75)}/><rect x="520" y="330" width="420" height="150" rx="40" ${white(0.3)}/><circle cx="330" cy="225" r="14" fill="#B45309"/><circle cx="380" cy="225" r="14" fill="#B45309"/><circle cx="430" cy="225" r="14" fill="#B45309"/>`
    case "faces":
      return [380, 600, 820]
        .map(
          (x, index) =>
            `<circle cx="${x}" cy="300" r="${70 + index * 10}" ${white(0.3)}/><rect x="${x - 110}" y="${180 - index * 10}" width="220" height="${240 + index * 20}" rx="12" fill="none" stroke="#fff" stroke-width="6"/>`
        )
        .join("")
    case "tiers":
      return [0, 1, 2]
        .map((index) => `<rect x="${330 + index * 190}" y="${420 - index * 110}" width="160" height="${110 + index * 110}" rx="16" ${white(0.25 + index * 0.25)}/>`)
        .join("")
    case "spark":
      return `<path d="M600 120 L650 270 L800 315 L650 360 L600 510 L550 360 L400 315 L550 270 Z" ${white(0.8)}/><circle cx="820" cy="170" r="30" ${white(0.5)}/><circle cx="390" cy="470" r="22" ${white(0.4)}/>`
  }
}

/** The post's cover, generated as an SVG data URL: no image is fetched from anywhere. */
export function coverImage({ id }: { id: string }): string {
  const hash = hashOf(id)
  const cover = PALETTES[hash % PALETTES.length]!
  const motif = MOTIFS[Math.floor(hash / PALETTES.length) % MOTIFS.length]!
  const gradient = `cover-${id}`
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1200 630" width="1200" height="630">` +
    `<defs><linearGradient id="${gradient}" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${cover.from}"/><stop offset="1" stop-color="${cover.to}"/></linearGradient></defs>` +
    `<rect width="1200" height="630" fill="url(#${gradient})"/>${motifShapes(motif)}</svg>`
  return `data:image/svg+xml,${encodeURIComponent(svg)}`
}

/** The uploaded featured image, else the drawn cover. */
export const postImage = (post: { id: string; featuredImage: string | null }) => post.featuredImage ?? coverImage(post)
