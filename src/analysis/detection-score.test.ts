import { describe, expect, it } from "vitest"

import { addTallies, precisionOf, recallOf, scoreObjects } from "./detection-score"

describe("scoreObjects", () => {
  it("counts hits per label, misses and objects beyond the hand count", () => {
    const tally = scoreObjects(["person", "person", "tie", "person", "person", "cup"], { objects: { person: 3, cup: 2, "cell phone": 1 } })
    // person: 3 hits and 1 too many; tie: 1 false; cup: 1 hit, 1 missed; cell phone: 1 missed.
    expect(tally).toEqual({ hits: 4, falseObjects: 2, missed: 2 })
    expect(precisionOf(tally)).toBeCloseTo(4 / 6)
    expect(recallOf(tally)).toBeCloseTo(4 / 6)
  })

  it("lets a detector name ambiguous things without counting them as false, up to their number", () => {
    const hand = { objects: { person: 2 }, ambiguous: { person: 1, car: 1 } }
    expect(scoreObjects(["person", "person", "person", "car"], hand)).toEqual({ hits: 2, falseObjects: 0, missed: 0 })
    expect(scoreObjects(["person", "person", "person", "person", "car", "car"], hand)).toEqual({ hits: 2, falseObjects: 2, missed: 0 })
  })

  it("adds tallies and calls an empty list or an empty photo perfect rather than dividing by zero", () => {
    const empty = scoreObjects([], { objects: {} })
    expect(empty).toEqual({ hits: 0, falseObjects: 0, missed: 0 })
    expect([precisionOf(empty), recallOf(empty)]).toEqual([1, 1])
    expect(addTallies([{ hits: 1, falseObjects: 2, missed: 3 }, { hits: 4, falseObjects: 0, missed: 1 }])).toEqual({ hits: 5, falseObjects: 2, missed: 4 })
  })
})
