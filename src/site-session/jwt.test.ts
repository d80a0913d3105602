import { describe, expect, it } from "vitest"

import { decodeJwtPayload, getTokenExpiry, secondsUntilExpiry } from "./jwt"

const base64url = (text: string) => {
  const bytes = new TextEncoder().encode(text)
  return btoa(String.fromCharCode(...bytes))
    .replace(/=+$/, "")
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
}
const jwt = (payload: unknown) => `${base64url(JSON.stringify({ alg: "HS256", typ: "JWT" }))}.${base64url(JSON.stringify(payload))}.signature`

describe("decodeJwtPayload", () => {
  it("decodes a base64url payload, UTF-8 included", () => {
    // "ü?~" gives base64 with "+" and "/" characters, so the url alphabet is exercised.
    expect(decodeJwtPayload(jwt({ sub: "u1", name: "Zoë ü?~>>", exp: 123 }))).toEqual({ sub: "u1", name: "Zoë ü?~>>", exp: 123 })
  })

  it.each([
    ["not a JWT", "token"],
    ["two parts", "a.b"],
    ["four parts", "a.b.c.d"],
    ["an empty payload", "a..c"],
    ["a payload that is not base64", "a.%%%.c"],
    ["a payload that is not JSON", `a.${base64url("nope")}.c`],
    ["a JSON array payload", `a.${base64url("[1]")}.c`],
    ["a JSON string payload", `a.${base64url('"x"')}.c`]
  ])("returns null for %s", (_label, token) => {
    expect(decodeJwtPayload(token)).toBeNull()
  })
})

describe("expiry", () => {
  it("reads exp in seconds and the seconds left", () => {
    const token = jwt({ exp: 1_000 })
    expect(getTokenExpiry(token)).toBe(1_000)
    expect(secondsUntilExpiry(token, 400_000)).toBe(600)
    expect(secondsUntilExpiry(token, 1_500_000)).toBe(-500)
  })

  it.each([["missing", {}], ["a string", { exp: "1000" }], ["null", { exp: null }]])("is null when exp is %s", (_label, payload) => {
    expect(getTokenExpiry(jwt(payload))).toBeNull()
    expect(secondsUntilExpiry(jwt(payload), 0)).toBeNull()
  })
})
