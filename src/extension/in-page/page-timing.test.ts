import { describe, expect, it, vi } from "vitest"

import { throttleLatest } from "./page-timing"

describe("throttleLatest", () => {
  it("sends at once, then merges calls into one per interval with the latest value", () => {
    vi.useFakeTimers()
    try {
      const send = vi.fn()
      const throttled = throttleLatest(send, 1000)
      throttled(1)
      expect(send).toHaveBeenLastCalledWith(1)
      throttled(2)
      throttled(3)
      expect(send).toHaveBeenCalledTimes(1)
      vi.advanceTimersByTime(1000)
      expect(send).toHaveBeenCalledTimes(2)
      expect(send).toHaveBeenLastCalledWith(3)
      throttled(4)
      throttled.cancel()
      vi.advanceTimersByTime(2000)
      expect(send).toHaveBeenCalledTimes(2)
    } finally {
      vi.useRealTimers()
    }
  })
})
