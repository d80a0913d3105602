// @vitest-environment node
import { describe, expect, it } from "vitest"

import { firefoxManifest } from "./copy-extension-assets.mjs"

describe("finishing a build", () => {
  it("makes the Firefox manifest: no Chrome-only keys, the bridge on the origins' hosts (no port), the same when run twice", () => {
    const plasmo = {
      name: "Image Query AI",
      key: "MIIB…",
      permissions: ["storage", "sidePanel", "tabs", "webRequest"],
      externally_connectable: { matches: ["http://localhost:8787/*"] },
      sidebar_action: { default_panel: "sidepanel.html" },
      content_scripts: [{ matches: ["<all_urls>"], js: ["image-button.js"] }]
    }
    const once = firefoxManifest(plasmo, ["http://localhost:8787", "http://127.0.0.1:8787", "https://site.example"], "site-bridge.js")
    expect(once).not.toHaveProperty("key")
    expect(once).not.toHaveProperty("externally_connectable")
    expect(once.permissions).toEqual(["storage", "tabs", "dns"])
    expect(once.content_scripts).toEqual([
      { matches: ["<all_urls>"], js: ["image-button.js"] },
      { matches: ["http://localhost/*", "http://127.0.0.1/*", "https://site.example/*"], js: ["site-bridge.js"], run_at: "document_start", all_frames: false }
    ])
    expect(firefoxManifest(once, ["http://localhost:8787", "http://127.0.0.1:8787", "https://site.example"], "site-bridge.js")).toEqual(once)
  })
})
