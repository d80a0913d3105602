/** Small hand-drawn social glyphs: lucide no longer ships brand marks. */
import type { ReactNode } from "react"

interface IconProps {
  className?: string
}

/** How a glyph's line ends and joins: the one thing, besides its shape, in which the glyphs differ. */
interface LineEnds {
  strokeLinecap?: "round"
  strokeLinejoin?: "round"
}

/** One 24×24 outline glyph, drawn in the text colour and hidden from assistive technology (its link carries the name). */
function glyph(ends: LineEnds, shape: ReactNode) {
  return function SocialGlyph({ className }: IconProps) {
    return (
      <svg viewBox="0 0 24 24" aria-hidden focusable={false} className={className} fill="none" stroke="currentColor" strokeWidth="2" {...ends}>
        {shape}
      </svg>
    )
  }
}

export const XIcon = glyph({ strokeLinecap: "round" }, <path d="M4 4l16 16M20 4L4 20" />)

export const GitHubIcon = glyph({ strokeLinecap: "round", strokeLinejoin: "round" }, <path d="M8 9l-3 3 3 3M16 9l3 3-3 3M13.5 6l-3 12" />)

export const LinkedInIcon = glyph(
  { strokeLinecap: "round" },
  <>
    <rect x="3" y="3" width="18" height="18" rx="3" />
    <path d="M8 11v6M8 7.5v.01M12 17v-6M12 13.5c0-1.5 1-2.5 2.5-2.5S17 12 17 13.5V17" />
  </>
)

export const YouTubeIcon = glyph(
  { strokeLinejoin: "round" },
  <>
    <rect x="2.5" y="5.5" width="19" height="13" rx="4" />
    <path d="M10 9.5v5l4.5-2.5z" fill="currentColor" />
  </>
)
