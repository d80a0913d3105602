import { readFileSync } from "node:fs"

import { describe, expect, it } from "vitest"

import { APP_VERSION } from "./version"

describe("the app version", () => {
  it("is package.json's version", () => {
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }
    expect(APP_VERSION).toBe(pkg.version)
  })
})
