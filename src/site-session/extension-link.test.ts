import { afterEach, describe, expect, it, vi } from "vitest"

import { EXTENSION_AUTH_STATUS_REQUEST } from "~core/extension-messages"

import { connectExtensionLink, RECONNECT_MAX_MS, RECONNECT_MIN_MS, STABLE_LINK_MS } from "./extension-link"
import type { ExtensionPort } from "./extension-notifier"
import { teardownSession } from "./session-store"

vi.mock("~ui/toast", () => ({ toast: { success: vi.fn(), error: vi.fn() } }))

/** A port the test drives: deliver() plays the extension, drop() closes it from the extension's side. */
function fakePort() {
  const messageListeners: ((message: unknown) => void)[] = []
  const disconnectListeners: (() => void)[] = []
  const posted: unknown[] = []
  const port: ExtensionPort & { posted: unknown[]; disconnected: boolean } = {
    posted,
    disconnected: false,
    postMessage: (message) => void posted.push(message),
    disconnect: () => {
      port.disconnected = true
    },
    onMessage: { addListener: (listener) => void messageListeners.push(listener) },
    onDisconnect: { addListener: (listener) => void disconnectListeners.push(listener) }
  }
  return {
    port,
    deliver: (message: unknown) => messageListeners.forEach((listener) => listener(message)),
    drop: () => disconnectListeners.forEach((listener) => listener())
  }
}

afterEach(() => {
  vi.useRealTimers()
  teardownSession()
})

describe("connectExtensionLink", () => {
  it("does nothing where no extension can be reached", () => {
    const stop = connectExtensionLink()
    expect(stop).toBeTypeOf("function")
    stop()
  })

  it("answers each request on the port: success for a known request, the error for a bad one", async () => {
    const link = fakePort()
    const stop = connectExtensionLink({ connect: () => link.port })
    link.deliver({ type: EXTENSION_AUTH_STATUS_REQUEST, timestamp: Date.now() })
    link.deliver({ type: EXTENSION_AUTH_STATUS_REQUEST })
    link.deliver({ type: "WEBSITE_AUTH_LOGOUT", timestamp: 1 })
    await vi.waitFor(() => expect(link.port.posted).toHaveLength(3))
    expect(link.port.posted).toEqual([
      { success: true },
      { success: false, error: "Invalid message: the timestamp must be a number" },
      { success: false, error: "Invalid message type: it must be a string starting with EXTENSION_" }
    ])
    stop()
    expect(link.port.disconnected).toBe(true)
  })

  it("reconnects after the extension closes the port, backing off while it keeps failing", () => {
    vi.useFakeTimers()
    const ports: ReturnType<typeof fakePort>[] = []
    const connect = vi.fn(() => {
      const link = fakePort()
      ports.push(link)
      return link.port
    })
    const stop = connectExtensionLink({ connect })
    expect(connect).toHaveBeenCalledTimes(1)

    // Closed at once, again and again (no extension behind the id): 1 s, 2 s, 4 s ... up to the maximum.
    const delays: number[] = []
    let last = Date.now()
    for (let attempt = 0; attempt < 12; attempt++) {
      ports.at(-1)!.drop()
      const calls = connect.mock.calls.length
      while (connect.mock.calls.length === calls) vi.advanceTimersByTime(100)
      delays.push(Date.now() - last)
      last = Date.now()
    }
    expect(delays.slice(0, 4)).toEqual([RECONNECT_MIN_MS, 2 * RECONNECT_MIN_MS, 4 * RECONNECT_MIN_MS, 8 * RECONNECT_MIN_MS])
    expect(delays.at(-1)).toBe(RECONNECT_MAX_MS)

    // A link that stayed up (the service worker went idle later) reconnects after the minimum again.
    vi.advanceTimersByTime(STABLE_LINK_MS)
    ports.at(-1)!.drop()
    const calls = connect.mock.calls.length
    vi.advanceTimersByTime(RECONNECT_MIN_MS)
    expect(connect).toHaveBeenCalledTimes(calls + 1)

    stop()
    ports.at(-1)!.drop()
    vi.advanceTimersByTime(RECONNECT_MAX_MS * 2)
    expect(connect).toHaveBeenCalledTimes(calls + 1)
  })

  it("retries later when connecting throws", () => {
    vi.useFakeTimers()
    const link = fakePort()
    const connect = vi.fn<() => ExtensionPort>().mockImplementationOnce(() => {
      throw new Error("Extension context invalidated")
    })
    connect.mockImplementation(() => link.port)
    const stop = connectExtensionLink({ connect })
    vi.advanceTimersByTime(RECONNECT_MIN_MS)
    expect(connect).toHaveBeenCalledTimes(2)
    stop()
  })
})
