// @vitest-environment node
import fs from "node:fs"
import os from "node:os"
import path from "node:path"

import { describe, expect, it, onTestFinished } from "vitest"

import { siteMountDefine } from "./site-mount-build.mjs"

describe("the site mount's build", () => {
  it("inlines what Plasmo inlined for the same build: NODE_ENV and the public variables, never another", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "iqa-site-mount-env-"))
    onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }))
    fs.writeFileSync(path.join(dir, ".env.firefox"), "PLASMO_PUBLIC_API_URL=https://firefox.example\n")
    fs.writeFileSync(path.join(dir, ".env"), "PLASMO_PUBLIC_API_URL=https://api.example\nSTRIPE_SECRET_KEY=sk_test_secret\n")

    const firefox = siteMountDefine("build/firefox-mv3-prod", dir)
    expect(firefox["process.env.PLASMO_PUBLIC_API_URL"]).toBe('"https://firefox.example"')
    expect(firefox["process.env.NODE_ENV"]).toBe('"production"')
    // Unset, as Plasmo leaves it: the code's own default applies.
    expect(firefox["process.env.PLASMO_PUBLIC_SITE_ORIGINS"]).toBe(process.env.PLASMO_PUBLIC_SITE_ORIGINS === undefined ? "undefined" : JSON.stringify(process.env.PLASMO_PUBLIC_SITE_ORIGINS))
    expect(Object.keys(firefox).filter((name) => !/^process\.env\.(NODE_ENV|PLASMO_PUBLIC_\w+)$/.test(name))).toEqual([])
    expect(JSON.stringify(firefox)).not.toContain("sk_test_secret")

    const chromeDev = siteMountDefine("build/chrome-mv3-dev", dir)
    expect(chromeDev["process.env.PLASMO_PUBLIC_API_URL"]).toBe('"https://api.example"')
    expect(chromeDev["process.env.NODE_ENV"]).toBe('"development"')
  })
})
