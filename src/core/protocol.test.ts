// @vitest-environment node
import { describe, expect, it } from "vitest"
import * as z from "zod"

import { defineMessage, parseWith } from "./protocol"

describe("parseWith", () => {
  const schema = z.object({ a: z.string({ error: "a must be text" }), b: z.number({ error: "b must be a number" }) })

  it("gives the parsed message", () => {
    expect(parseWith(schema, { a: "x", b: 1 })).toEqual({ ok: true, message: { a: "x", b: 1 } })
  })

  it("reports the first problem, in the schema's words", () => {
    expect(parseWith(schema, { b: "1" })).toEqual({ ok: false, error: "a must be text" })
    expect(parseWith(schema, { a: "x" })).toEqual({ ok: false, error: "b must be a number" })
  })
})

describe("defineMessage", () => {
  const resize = defineMessage("RESIZE", { width: (width): width is number => typeof width === "number" }, "Give a width")
  const ping = defineMessage("PING", {})

  it("keeps its type constant", () => {
    expect(resize.type).toBe("RESIZE")
  })

  it("accepts a message of its type whose fields pass their checks", () => {
    expect(resize.parse({ type: "RESIZE", width: 3 })).toEqual({ ok: true, message: { type: "RESIZE", width: 3 } })
    expect(resize.is({ type: "RESIZE", width: 3, note: "ignored" })).toBe(true)
    expect(ping.is({ type: "PING" })).toBe(true)
  })

  it.each([
    ["another type", { type: "MOVE", width: 3 }],
    ["a missing field", { type: "RESIZE" }],
    ["a field of the wrong kind", { type: "RESIZE", width: "3" }],
    ["no object", "RESIZE"],
    ["null", null]
  ])("refuses %s, with its own words", (_label, raw) => {
    expect(resize.parse(raw)).toEqual({ ok: false, error: "Give a width" })
    expect(resize.is(raw)).toBe(false)
  })

  it("words a refusal after its type when not told otherwise", () => {
    expect(ping.parse({ type: "PONG" })).toEqual({ ok: false, error: "Invalid PING message" })
  })
})
