// How well a detector's list matches what a person counted on the same photo (bench/photos/hand-counts.json),
// by label count per photo rather than by box: a hand count says how many of each label there are, not where.

/** What a person counted on one photo, by COCO label. */
export interface HandCount {
  objects: Readonly<Record<string, number>>
  /** Things a detector may fairly name that a person would not insist on: up to this many are neither hit nor false. */
  ambiguous?: Readonly<Record<string, number>>
}

export interface Tally {
  /** Found and counted: min(found, counted) per label. */
  hits: number
  /** Found beyond what was counted (and beyond the ambiguous allowance). */
  falseObjects: number
  /** Counted but not found. */
  missed: number
}

export function scoreObjects(foundLabels: readonly string[], hand: HandCount): Tally {
  const found = new Map<string, number>()
  for (const label of foundLabels) found.set(label, (found.get(label) ?? 0) + 1)
  const tally: Tally = { hits: 0, falseObjects: 0, missed: 0 }
  for (const label of new Set([...found.keys(), ...Object.keys(hand.objects)])) {
    const foundCount = found.get(label) ?? 0
    const counted = hand.objects[label] ?? 0
    const hits = Math.min(foundCount, counted)
    tally.hits += hits
    tally.missed += counted - hits
    tally.falseObjects += Math.max(0, foundCount - counted - (hand.ambiguous?.[label] ?? 0))
  }
  return tally
}

export function addTallies(tallies: readonly Tally[]): Tally {
  return tallies.reduce((sum, tally) => ({ hits: sum.hits + tally.hits, falseObjects: sum.falseObjects + tally.falseObjects, missed: sum.missed + tally.missed }), {
    hits: 0,
    falseObjects: 0,
    missed: 0
  })
}

/** Share of the listed objects that are right (1 when nothing was listed). */
export const precisionOf = ({ hits, falseObjects }: Tally) => (hits + falseObjects === 0 ? 1 : hits / (hits + falseObjects))

/** Share of the counted objects that were listed (1 when nothing was counted). */
export const recallOf = ({ hits, missed }: Tally) => (hits + missed === 0 ? 1 : hits / (hits + missed))
