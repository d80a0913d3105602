/** Counts and shares in words, the same on every page and in every message. */

/** "1 face", "3 faces". */
export function countOf(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`
}

/** A 0–1 score or fraction as a whole percentage: 0.923 → "92%". */
export function percent(fraction: number): string {
  return `${Math.round(fraction * 100)}%`
}
