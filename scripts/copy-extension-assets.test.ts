// @vitest-environment node
import fs from "node:fs"
import os from "node:os"
import path from "node:path"

import { afterEach, describe, expect, it } from "vitest"

import { firefoxManifest } from "./copy-extension-assets.mjs"
import { plasmoEnv } from "./plasmo-env.mjs"

const folders: string[] = []
afterEach(() => {
  for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true })
})

describe("finishing a build", () => {
  it("reads the .env files Plasmo read for that build's browser and mode", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "iqa-plasmo-env-"))
    folders.push(dir)
    fs.writeFileSync(path.join(dir, ".env.chrome"), "PLASMO_PUBLIC_SITE_ORIGINS=https://chrome.example\n")
    fs.writeFileSync(path.join(dir, ".env.firefox"), "PLASMO_PUBLIC_SITE_ORIGINS=https://firefox.example\n")
    fs.writeFileSync(path.join(dir, ".env.development"), "PLASMO_PUBLIC_API_URL=http://localhost:9999\n")
    fs.writeFileSync(path.join(dir, ".env"), "PLASMO_PUBLIC_API_URL=https://api.example\n")
    expect(plasmoEnv("build/chrome-mv3-prod", dir).PLASMO_PUBLIC_SITE_ORIGINS).toBe("https://chrome.example")
    expect(plasmoEnv("build/firefox-mv3-prod", dir).PLASMO_PUBLIC_SITE_ORIGINS).toBe("https://firefox.example")
    expect(plasmoEnv("build/firefox-mv3-prod", dir).PLASMO_PUBLIC_API_URL).toBe("https://api.example")
    expect(plasmoEnv("build/firefox-mv3-dev", dir).PLASMO_PUBLIC_API_URL).toBe("http://localhost:9999")
  })

  it("makes the Firefox manifest: no Chrome-only keys, the bridge on the origins' hosts (no port), the same when run twice", () => {
    const plasmo = {
      name: "Image Query AI",
      key: "MIIB…",
      permissions: ["storage", "sidePanel", "tabs"],
      externally_connectable: { matches: ["http://localhost:8787/*"] },
      sidebar_action: { default_panel: "sidepanel.html" },
      content_scripts: [{ matches: ["<all_urls>"], js: ["image-button.js"] }]
    }
    const once = firefoxManifest(plasmo, ["http://localhost:8787", "http://127.0.0.1:8787", "https://site.example"], "site-bridge.js")
    expect(once).not.toHaveProperty("key")
    expect(once).not.toHaveProperty("externally_connectable")
    expect(once.permissions).toEqual(["storage", "tabs"])
    expect(once.content_scripts).toEqual([
      { matches: ["<all_urls>"], js: ["image-button.js"] },
      { matches: ["http://localhost/*", "http://127.0.0.1/*", "https://site.example/*"], js: ["site-bridge.js"], run_at: "document_start", all_frames: false }
    ])
    expect(firefoxManifest(once, ["http://localhost:8787", "http://127.0.0.1:8787", "https://site.example"], "site-bridge.js")).toEqual(once)
  })
})
