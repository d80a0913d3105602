// @vitest-environment node
import fs from "node:fs"
import os from "node:os"
import path from "node:path"

import { describe, expect, it, onTestFinished, vi } from "vitest"

import { buildMode, plasmoEnv } from "./plasmo-env.mjs"

describe("the environment of a Plasmo build", () => {
  it("reads the .env files Plasmo read for that build's browser and mode", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "iqa-plasmo-env-"))
    onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }))
    // Unset, as in a shell that sets neither (the unit run names the local site, and the environment wins over files).
    vi.stubEnv("PLASMO_PUBLIC_SITE_ORIGINS", undefined)
    vi.stubEnv("PLASMO_PUBLIC_API_URL", undefined)
    onTestFinished(() => void vi.unstubAllEnvs())
    fs.writeFileSync(path.join(dir, ".env.chrome"), "PLASMO_PUBLIC_SITE_ORIGINS=https://chrome.example\n")
    fs.writeFileSync(path.join(dir, ".env.firefox"), "PLASMO_PUBLIC_SITE_ORIGINS=https://firefox.example\n")
    fs.writeFileSync(path.join(dir, ".env.development"), "PLASMO_PUBLIC_API_URL=http://localhost:9999\n")
    fs.writeFileSync(path.join(dir, ".env"), "PLASMO_PUBLIC_API_URL=https://api.example\n")
    expect(plasmoEnv("build/chrome-mv3-prod", dir).PLASMO_PUBLIC_SITE_ORIGINS).toBe("https://chrome.example")
    expect(plasmoEnv("build/firefox-mv3-prod", dir).PLASMO_PUBLIC_SITE_ORIGINS).toBe("https://firefox.example")
    expect(plasmoEnv("build/firefox-mv3-prod", dir).PLASMO_PUBLIC_API_URL).toBe("https://api.example")
    expect(plasmoEnv("build/firefox-mv3-dev", dir).PLASMO_PUBLIC_API_URL).toBe("http://localhost:9999")
  })

  it("tells a development build from a production one by its folder", () => {
    expect(buildMode("/tmp/x/build/chrome-mv3-dev")).toBe("development")
    expect(buildMode("build/firefox-mv3-prod")).toBe("production")
  })
})
