// @vitest-environment node
import { describe, expect, it } from "vitest"

import {
  EXTENSION_AUTH_STATUS_REQUEST,
  EXTENSION_LOGOUT_REQUEST,
  INVALID_MESSAGE_ERROR,
  INVALID_TIMESTAMP_ERROR,
  INVALID_TYPE_ERROR,
  INVALID_WEBSITE_PAYLOAD_ERROR,
  INVALID_WEBSITE_TYPE_ERROR,
  parseExtensionMessage,
  parseWebsiteMessage,
  unknownMessageTypeError,
  websiteLoginMessage,
  websiteLogoutMessage,
  websiteSyncMessage
} from "./extension-messages"
import { EXTENSION_TOKEN_LIFETIME_MS } from "./extension-messages"
import { extensionErrorAnswer, extensionSuccessAnswer } from "./protocol"
import { type User } from "./user"

const user: User = { name: "Ada", email: "ada@example.com", role: "user", provider: "email" }
const now = 1_700_000_000_000
const clock = () => now

describe("outgoing messages", () => {
  it("builds WEBSITE_AUTH_LOGIN with the user, the access token, a null refresh token and expiresAt one hour from now", () => {
    expect(websiteLoginMessage({ user, authToken: "a" }, clock)).toEqual({
      type: "WEBSITE_AUTH_LOGIN",
      payload: { user, tokens: { authToken: "a", refreshToken: null, expiresAt: now + 3_600_000 } },
      timestamp: now
    })
    expect(EXTENSION_TOKEN_LIFETIME_MS).toBe(3_600_000)
  })

  it("never carries a refresh token, even one slipped past the type", () => {
    const session = { user, authToken: "a", refreshToken: "site-refresh" }
    for (const message of [websiteLoginMessage(session, clock), websiteSyncMessage(session, clock)]) {
      expect(message.payload.tokens.refreshToken).toBeNull()
      expect(JSON.stringify(message)).not.toContain("site-refresh")
    }
  })

  it("builds WEBSITE_AUTH_SYNC the same way", () => {
    expect(websiteSyncMessage({ user, authToken: "a" }, clock)).toEqual({
      type: "WEBSITE_AUTH_SYNC",
      payload: { user, tokens: { authToken: "a", refreshToken: null, expiresAt: now + EXTENSION_TOKEN_LIFETIME_MS } },
      timestamp: now
    })
  })

  it("builds WEBSITE_AUTH_LOGOUT without user or tokens", () => {
    expect(websiteLogoutMessage(clock)).toEqual({ type: "WEBSITE_AUTH_LOGOUT", payload: { user: null, tokens: null }, timestamp: now })
  })

  it("uses the real clock by default", () => {
    const before = Date.now()
    const message = websiteSyncMessage({ user, authToken: "a" })
    expect(message.timestamp).toBeGreaterThanOrEqual(before)
    expect(message.payload.tokens.expiresAt).toBe(message.timestamp + EXTENSION_TOKEN_LIFETIME_MS)
  })
})

describe("parseExtensionMessage", () => {
  it("accepts an EXTENSION_ type with a numeric timestamp and keeps the other fields", () => {
    expect(parseExtensionMessage({ type: EXTENSION_AUTH_STATUS_REQUEST, timestamp: 5, payload: { a: 1 } })).toEqual({
      ok: true,
      message: { type: EXTENSION_AUTH_STATUS_REQUEST, timestamp: 5, payload: { a: 1 } }
    })
    expect(parseExtensionMessage({ type: "EXTENSION_SOMETHING_NEW", timestamp: 0 }).ok).toBe(true)
  })

  it.each([
    ["null", null, INVALID_MESSAGE_ERROR],
    ["a string", "EXTENSION_LOGOUT_REQUEST", INVALID_MESSAGE_ERROR],
    ["an array", [], INVALID_MESSAGE_ERROR],
    ["no type", { timestamp: 1 }, INVALID_TYPE_ERROR],
    ["a non-string type", { type: 42, timestamp: 1 }, INVALID_TYPE_ERROR],
    ["a type with another prefix", { type: "WEBSITE_AUTH_SYNC", timestamp: 1 }, INVALID_TYPE_ERROR],
    ["a lower-case prefix", { type: "extension_logout_request", timestamp: 1 }, INVALID_TYPE_ERROR],
    ["no timestamp", { type: EXTENSION_LOGOUT_REQUEST }, INVALID_TIMESTAMP_ERROR],
    ["a string timestamp", { type: EXTENSION_LOGOUT_REQUEST, timestamp: "1" }, INVALID_TIMESTAMP_ERROR],
    ["a NaN timestamp", { type: EXTENSION_LOGOUT_REQUEST, timestamp: Number.NaN }, INVALID_TIMESTAMP_ERROR],
    ["an infinite timestamp", { type: EXTENSION_LOGOUT_REQUEST, timestamp: Number.POSITIVE_INFINITY }, INVALID_TIMESTAMP_ERROR]
  ])("refuses %s", (_label, raw, error) => {
    expect(parseExtensionMessage(raw)).toEqual({ ok: false, error })
  })
})

describe("parseWebsiteMessage", () => {
  const ada: User & { id: string } = { id: "u1", name: "Ada", email: "ada@example.com", role: "user", provider: "email" }
  const login = (user: User & { id: string }) => websiteLoginMessage({ user, authToken: `site-${user.id}` })

  it("drops a refresh token an older site still sends", () => {
    const raw = { ...login(ada), payload: { user: ada, tokens: { authToken: "site-u1", refreshToken: "site-refresh-u1", expiresAt: now } } }
    const parsed = parseWebsiteMessage(raw)
    expect(parsed).toEqual({ ok: true, message: { type: "WEBSITE_AUTH_LOGIN", timestamp: raw.timestamp, user: ada, authToken: "site-u1" } })
    expect(JSON.stringify(parsed)).not.toContain("site-refresh")
  })

  it("accepts the three website messages as the site builds them", () => {
    expect(parseWebsiteMessage(login(ada))).toMatchObject({ ok: true, message: { type: "WEBSITE_AUTH_LOGIN", authToken: "site-u1", user: ada } })
    expect(parseWebsiteMessage(websiteSyncMessage({ user: ada, authToken: "t" }))).toMatchObject({ ok: true, message: { type: "WEBSITE_AUTH_SYNC" } })
    expect(parseWebsiteMessage(websiteLogoutMessage())).toMatchObject({ ok: true, message: { type: "WEBSITE_AUTH_LOGOUT" } })
  })

  it.each([
    [null, INVALID_MESSAGE_ERROR],
    ["WEBSITE_AUTH_LOGIN", INVALID_MESSAGE_ERROR],
    [[], INVALID_MESSAGE_ERROR],
    [{ timestamp: 1 }, INVALID_WEBSITE_TYPE_ERROR],
    [{ type: 42, timestamp: 1 }, INVALID_WEBSITE_TYPE_ERROR],
    [{ type: "EXTENSION_AUTH_STATUS_REQUEST", timestamp: 1 }, INVALID_WEBSITE_TYPE_ERROR],
    [{ type: "WEBSITE_AUTH_LOGOUT" }, INVALID_TIMESTAMP_ERROR],
    [{ type: "WEBSITE_AUTH_LOGOUT", timestamp: "1" }, INVALID_TIMESTAMP_ERROR],
    [{ type: "WEBSITE_AUTH_LOGOUT", timestamp: Number.NaN }, INVALID_TIMESTAMP_ERROR],
    [{ type: "WEBSITE_AUTH_LOGIN", timestamp: 1 }, INVALID_WEBSITE_PAYLOAD_ERROR],
    [{ type: "WEBSITE_AUTH_LOGIN", timestamp: 1, payload: { user: ada, tokens: { authToken: "" } } }, INVALID_WEBSITE_PAYLOAD_ERROR],
    [{ type: "WEBSITE_AUTH_SYNC", timestamp: 1, payload: { user: { name: "x" }, tokens: { authToken: "t" } } }, INVALID_WEBSITE_PAYLOAD_ERROR],
    [{ type: "WEBSITE_OTHER", timestamp: 1 }, "Unknown message type: WEBSITE_OTHER"]
  ])("refuses %j", (raw, error) => {
    expect(parseWebsiteMessage(raw)).toEqual({ ok: false, error })
  })

  it("words the type error with the prefix each side expects", () => {
    expect(INVALID_TYPE_ERROR).toBe("Invalid message type: it must be a string starting with EXTENSION_")
    expect(INVALID_WEBSITE_TYPE_ERROR).toBe("Invalid message type: it must be a string starting with WEBSITE_")
  })
})

describe("answers", () => {
  it("answers errors with success false and the message", () => {
    expect(extensionErrorAnswer("bad")).toEqual({ success: false, error: "bad" })
    expect(extensionErrorAnswer(new Error("boom"))).toEqual({ success: false, error: "boom" })
    expect(extensionErrorAnswer(undefined)).toEqual({ success: false, error: "Unknown error" })
    expect(extensionErrorAnswer(unknownMessageTypeError("EXTENSION_X"))).toEqual({ success: false, error: "Unknown message type: EXTENSION_X" })
  })

  it("answers success with a fresh object", () => {
    expect(extensionSuccessAnswer()).toEqual({ success: true })
    expect(extensionSuccessAnswer()).not.toBe(extensionSuccessAnswer())
  })
})
