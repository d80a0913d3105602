import { afterEach, describe, expect, it, vi } from "vitest"

import { TimeoutError, withTimeout } from "./with-timeout"

afterEach(() => vi.useRealTimers())

describe("withTimeout", () => {
  it("passes a result through and rejects with the given message when time runs out", async () => {
    await expect(withTimeout(Promise.resolve(7), 50, "late")).resolves.toBe(7)
    const never = new Promise<never>(() => {})
    await expect(withTimeout(never, 10, "The engine did not start.")).rejects.toThrow(new TimeoutError("The engine did not start."))
  })

  it("settles like the promise when it is in time", async () => {
    await expect(withTimeout(Promise.resolve(7), 50, "late")).resolves.toBe(7)
    await expect(withTimeout(Promise.reject(new Error("own failure")), 50, "late")).rejects.toThrow("own failure")
  })

  it("rejects with a TimeoutError carrying the message once the time is up, not before", async () => {
    vi.useFakeTimers()
    const settled = vi.fn()
    const result = withTimeout(new Promise(() => {}), 1000, "The clipboard did not answer")
    result.catch(settled)
    await vi.advanceTimersByTimeAsync(999)
    expect(settled).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(1)
    await expect(result).rejects.toThrow(new TimeoutError("The clipboard did not answer"))
    await expect(result).rejects.toBeInstanceOf(TimeoutError)
  })

  it("leaves no timer behind", async () => {
    vi.useFakeTimers()
    await withTimeout(Promise.resolve("done"), 1000, "late")
    expect(vi.getTimerCount()).toBe(0)
  })
})
