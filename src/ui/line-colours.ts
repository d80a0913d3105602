/**
 * The colours a translated line is painted in over its image: the background sampled around the line, which covers
 * the original letters, and the ink, the letters' own colour. The panel samples them (src/panel/results/
 * overlay-colours.ts); the design system draws with them (TranslatedLayer).
 */

/** An RGB colour, each channel 0–255. */
export type Rgb = readonly [number, number, number]

export interface LineColours {
  background: Rgb
  ink: Rgb
}

export const cssColour = ([red, green, blue]: Rgb) => `rgb(${red} ${green} ${blue})`
