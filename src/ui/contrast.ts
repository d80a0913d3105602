/**
 * Text on a colour chosen by someone else (an organisation's accent colour): white or black, whichever contrasts
 * more, by WCAG 2's relative luminance. Pure black rather than a near-black grey, because with it every background
 * colour gives one of the two at least 4.58:1, past AA's 4.5:1 for small text; a grey such as #111827 leaves
 * mid-tones (luminance about 0.2) at 4.1:1.
 */

export const TEXT_ON_DARK = "#ffffff"
export const TEXT_ON_LIGHT = "#000000"

/** WCAG 2 relative luminance of `#rrggbb` (0 black, 1 white). */
export function relativeLuminance(hex: string): number {
  const channel = (offset: number) => {
    const value = parseInt(hex.slice(offset, offset + 2), 16) / 255
    return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4
  }
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5)
}

/** The WCAG contrast ratio of two `#rrggbb` colours, from 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number]
  return (light + 0.05) / (dark + 0.05)
}

/** The text colour to write on `background` (`#rrggbb`): white on dark colours, black on light ones. */
export function textColorOn(background: string): typeof TEXT_ON_DARK | typeof TEXT_ON_LIGHT {
  return contrastRatio(background, TEXT_ON_DARK) >= contrastRatio(background, TEXT_ON_LIGHT) ? TEXT_ON_DARK : TEXT_ON_LIGHT
}
