// @vitest-environment node
import fs from "node:fs"
import os from "node:os"
import path from "node:path"

import { afterEach, describe, expect, it, vi } from "vitest"

import { BUNDLE_ENTRIES, firefoxManifest, siteOriginsReport, writeSiteOrigins } from "./copy-extension-assets.mjs"

describe("finishing a build", () => {
  it("bundles from the *.entry.ts modules of src/extension, and from no other", () => {
    const extension = path.resolve(__dirname, "../src/extension")
    const entryFiles = fs.readdirSync(extension, { recursive: true, encoding: "utf8" }).filter((file) => /\.entry\.tsx?$/.test(file))
    expect(entryFiles.map((file) => file.split(path.sep).join("/")).sort()).toEqual(Object.values(BUNDLE_ENTRIES).sort())
  })

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

describe("the site origins a production build trusts", () => {
  const folders: string[] = []
  /** A production build folder as Plasmo leaves it for the target, before this script finishes it. */
  function plasmoBuild(target: "chrome-mv3" | "firefox-mv3"): string {
    const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "iqa-site-origins-")), `${target}-prod`)
    folders.push(path.dirname(dir))
    fs.mkdirSync(dir)
    const manifest = { name: "Image Query AI", permissions: ["storage"], externally_connectable: { matches: ["http://localhost:8787/*", "http://127.0.0.1:8787/*"] }, content_scripts: [] }
    fs.writeFileSync(path.join(dir, "manifest.json"), JSON.stringify(manifest))
    return dir
  }
  const manifestOf = (dir: string) => JSON.parse(fs.readFileSync(path.join(dir, "manifest.json"), "utf8")) as Record<string, unknown>
  /** The build's environment: set empty, a developer's .env cannot change it (the environment wins, as in Plasmo). */
  function buildEnvironment(siteOrigins: string, apiUrl: string) {
    vi.stubEnv("PLASMO_PUBLIC_SITE_ORIGINS", siteOrigins)
    vi.stubEnv("PLASMO_PUBLIC_API_URL", apiUrl)
  }

  afterEach(() => {
    vi.unstubAllEnvs()
    for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true })
  })

  it("lets no page on this computer connect unless PLASMO_PUBLIC_SITE_ORIGINS names it, whatever the API address", async () => {
    for (const apiUrl of ["", "http://localhost:8787", "http://127.0.0.1:9000"]) {
      buildEnvironment("", apiUrl)
      const dir = plasmoBuild("chrome-mv3")
      expect(await writeSiteOrigins(dir)).toEqual([])
      // No match: no web page may connect, and without "ids" no other extension either.
      expect(manifestOf(dir).externally_connectable).toEqual({ matches: [] })
    }
    buildEnvironment("", "https://imagequery.ai")
    const deployed = plasmoBuild("chrome-mv3")
    expect(await writeSiteOrigins(deployed)).toEqual(["https://imagequery.ai"])
    expect(manifestOf(deployed).externally_connectable).toEqual({ matches: ["https://imagequery.ai/*"] })
    buildEnvironment("http://localhost:8787", "")
    const named = plasmoBuild("chrome-mv3")
    expect(await writeSiteOrigins(named)).toEqual(["http://localhost:8787"])
    expect(manifestOf(named).externally_connectable).toEqual({ matches: ["http://localhost:8787/*"] })
  })

  it("gives a Firefox build that trusts no origin no site bridge", async () => {
    buildEnvironment("", "")
    const dir = plasmoBuild("firefox-mv3")
    fs.writeFileSync(path.join(dir, "site-bridge.js"), "// an earlier build's")
    expect(await writeSiteOrigins(dir, "firefox-mv3")).toEqual([])
    expect(manifestOf(dir).content_scripts).toEqual([])
    expect(fs.existsSync(path.join(dir, "site-bridge.js"))).toBe(false)
  })

  it("says what it trusts, and the rule, in the build's output", async () => {
    const dir = plasmoBuild("chrome-mv3")
    expect(await siteOriginsReport(dir, [])).toMatch(/: none \(.*\n.*only when PLASMO_PUBLIC_SITE_ORIGINS names them/)
    expect(await siteOriginsReport(dir, ["http://localhost:8787"])).toContain(": http://localhost:8787\n")
  })

  it("bakes the same rule into the extension's code: SITE_ORIGINS of a production bundle holds no loopback origin unless named", async () => {
    const { build } = await import("esbuild")
    /** SITE_ORIGINS of src/extension/site-link/site-origins.ts bundled as Plasmo inlines a production build's environment. */
    async function bundledSiteOrigins(siteOrigins: string | undefined): Promise<string[]> {
      const result = await build({
        entryPoints: [path.resolve(__dirname, "../src/extension/site-link/site-origins.ts")],
        bundle: true,
        write: false,
        format: "iife",
        globalName: "siteOrigins",
        platform: "browser",
        tsconfig: path.resolve(__dirname, "../tsconfig.json"),
        define: {
          "process.env.NODE_ENV": JSON.stringify("production"),
          "process.env.PLASMO_PUBLIC_API_URL": "undefined",
          "process.env.PLASMO_PUBLIC_SITE_ORIGINS": siteOrigins === undefined ? "undefined" : JSON.stringify(siteOrigins)
        },
        logLevel: "silent"
      })
      return (new Function(`${result.outputFiles[0]!.text}; return siteOrigins.SITE_ORIGINS`) as () => string[])()
    }
    expect(await bundledSiteOrigins(undefined)).toEqual([])
    expect(await bundledSiteOrigins("http://localhost:8787")).toEqual(["http://localhost:8787"])
  })
})
