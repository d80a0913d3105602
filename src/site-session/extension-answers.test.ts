import { toast } from "~ui/toast"
import { describe, expect, it, vi } from "vitest"

import { WEBSITE_LOGOUT_EVENT, handleExtensionMessage } from "./extension-answers"
import { useSession } from "./session-store"
import { sessionTestKit, storeSession, storedItems, user } from "./session-test-kit"

vi.mock("~ui/toast", () => ({ toast: { success: vi.fn(), error: vi.fn() } }))

const kit = sessionTestKit()

describe("handleExtensionMessage", () => {
  it.each([
    ["a non-object", "EXTENSION_AUTH_STATUS_REQUEST"],
    ["a message without a timestamp", { type: "EXTENSION_AUTH_STATUS_REQUEST" }],
    ["a message with another prefix", { type: "WEBSITE_AUTH_SYNC", timestamp: 1 }],
    ["an unknown EXTENSION_ type", { type: "EXTENSION_DANCE", timestamp: 1 }]
  ])("answers %s with success false and a message", async (_label, raw) => {
    const answer = await handleExtensionMessage(raw)
    expect(answer.success).toBe(false)
    expect(answer).toEqual({ success: false, error: expect.stringMatching(/\S/) })
    expect(kit.sent).toEqual([])
  })

  it("answers a status request with WEBSITE_AUTH_SYNC while signed in", async () => {
    storeSession()
    useSession.getState().restore()
    kit.sent = []
    await expect(handleExtensionMessage({ type: "EXTENSION_AUTH_STATUS_REQUEST", timestamp: 1 })).resolves.toEqual({ success: true })
    expect(kit.sent).toEqual([expect.objectContaining({ type: "WEBSITE_AUTH_SYNC", payload: expect.objectContaining({ user }) })])
  })

  it("answers a status request with WEBSITE_AUTH_LOGOUT while signed out", async () => {
    useSession.getState().restore()
    await expect(handleExtensionMessage({ type: "EXTENSION_AUTH_STATUS_REQUEST", timestamp: 1 })).resolves.toEqual({ success: true })
    expect(kit.sent.map((message) => message.type)).toEqual(["WEBSITE_AUTH_LOGOUT"])
  })

  it("logs out on a logout request and raises the website logout event", async () => {
    storeSession()
    useSession.getState().restore()
    const listener = vi.fn(() => expect(useSession.getState().status).toBe("loggedOut"))
    window.addEventListener(WEBSITE_LOGOUT_EVENT, listener)
    try {
      await expect(handleExtensionMessage({ type: "EXTENSION_LOGOUT_REQUEST", timestamp: 1 })).resolves.toEqual({ success: true })
    } finally {
      window.removeEventListener(WEBSITE_LOGOUT_EVENT, listener)
    }
    expect(listener).toHaveBeenCalledTimes(1)
    expect(WEBSITE_LOGOUT_EVENT).toBe("website-logout")
    expect(storedItems()).toEqual([null, null, null])
    expect(kit.server.calls("POST", "/api/auth/logout")).toEqual([expect.objectContaining({ auth: "Bearer t0" })])
  })

  it("raises the event without a logout call when already signed out", async () => {
    useSession.getState().restore()
    const listener = vi.fn()
    window.addEventListener(WEBSITE_LOGOUT_EVENT, listener)
    await expect(handleExtensionMessage({ type: "EXTENSION_LOGOUT_REQUEST", timestamp: 1 })).resolves.toEqual({ success: true })
    window.removeEventListener(WEBSITE_LOGOUT_EVENT, listener)
    expect(listener).toHaveBeenCalledTimes(1)
    expect(kit.server.seen).toHaveLength(0)
    expect(toast.success).not.toHaveBeenCalled()
  })
})
