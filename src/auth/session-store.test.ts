import { beforeEach, describe, expect, it } from "vitest"

import { SESSION_STORAGE_KEYS } from "~core/user"

import { readStoredUser, useSession } from "./session-store"

const user = { name: "Ada", email: "ada@example.com", role: "user", provider: "email" }

describe("restoring the browser session", () => {
  beforeEach(() => useSession.setState({ status: "loading", user: null }))

  it("restores a stored user when a token is stored too", () => {
    localStorage.setItem(SESSION_STORAGE_KEYS.authToken, "t")
    localStorage.setItem(SESSION_STORAGE_KEYS.user, JSON.stringify(user))
    useSession.getState().restore()
    expect(useSession.getState()).toMatchObject({ status: "loggedIn", user })
  })

  it.each([
    ["no token", null, JSON.stringify(user)],
    ["no user", "t", null],
    ["a user that is not JSON", "t", "{oops"],
    ["a user with an unknown role", "t", JSON.stringify({ ...user, role: "root" })],
    ["a user without an email", "t", JSON.stringify({ name: "x", role: "user", provider: "email" })]
  ])("is logged out with %s", (_label, token, storedUser) => {
    if (token) localStorage.setItem(SESSION_STORAGE_KEYS.authToken, token)
    if (storedUser) localStorage.setItem(SESSION_STORAGE_KEYS.user, storedUser)
    expect(readStoredUser(localStorage)).toBeNull()
    useSession.getState().restore()
    expect(useSession.getState()).toMatchObject({ status: "loggedOut", user: null })
  })
})
