// The companion site inside the extension (tabs/site.html, src/site-mount/), built by Vite into an extension build after
// Plasmo's. Plasmo's bundler never makes shared bundles (a content script or a service worker must be one file): given
// the site's 35 lazily loaded pages, it wrote each with its own copy of React, Radix, react-query and zod, 30 MB of
// the package's 38 MB of JavaScript, and minifying those copies was most of the build's time. Vite splits the site as
// it does for the web build: one copy of each module, pages loaded on demand from the extension's own files.
import fs from "node:fs"
import path from "node:path"
import { fileURLToPath } from "node:url"

import { buildMode, plasmoEnv } from "./plasmo-env.mjs"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")

/** The page, relative to the extension build, and the folder of its scripts and styles beside it. */
export const SITE_MOUNT_PAGE = "tabs/site.html"
export const SITE_MOUNT_ASSETS = "tabs/site"

/**
 * What Plasmo would have inlined for the site's code: NODE_ENV and the build's PLASMO_PUBLIC_* variables (the API
 * address the extension talks to), from the same .env files and environment as the Plasmo build of `buildDir`.
 */
export function siteMountDefine(buildDir, dir = root) {
  const env = plasmoEnv(buildDir, dir)
  const define = { "process.env.NODE_ENV": JSON.stringify(buildMode(buildDir)) }
  for (const name of ["PLASMO_PUBLIC_API_URL", "PLASMO_PUBLIC_SITE_ORIGINS"]) define[`process.env.${name}`] = "undefined"
  for (const [name, value] of Object.entries(env)) if (name.startsWith("PLASMO_PUBLIC_")) define[`process.env.${name}`] = JSON.stringify(value)
  return define
}

/** Removes the site mount of an earlier build, so that no stale chunk ships. */
function removeSiteMount(buildDir) {
  fs.rmSync(path.join(buildDir, SITE_MOUNT_ASSETS), { recursive: true, force: true })
  fs.rmSync(path.join(buildDir, SITE_MOUNT_PAGE), { force: true })
}

/**
 * Builds the site mount into `buildDir`. With `watch`, rebuilds on every change of its sources (npm run dev) and
 * resolves with Rollup's watcher once the first build is written; `onRebuilt` hears of each later one.
 */
export async function buildSiteMount(buildDir, { watch = false, onRebuilt = () => {} } = {}) {
  const [{ build }, { default: react }] = await Promise.all([import("vite"), import("@vitejs/plugin-react")])
  const mode = buildMode(buildDir)
  const config = {
    configFile: false,
    root: path.join(root, "src/site-mount"),
    // Relative addresses: the page and its chunks load from chrome-extension://<id>/tabs/ (moz-extension:// in Firefox).
    base: "./",
    mode,
    logLevel: "warn",
    publicDir: false,
    envDir: false,
    plugins: [react(), { name: "iqa-site-mount-clean", buildStart: () => removeSiteMount(buildDir) }],
    resolve: { alias: [{ find: /^~(.*)$/, replacement: `${path.join(root, "src")}/$1` }] },
    css: { postcss: root },
    define: siteMountDefine(buildDir),
    build: {
      outDir: path.join(buildDir, "tabs"),
      // tabs/ holds Plasmo's other extension pages.
      emptyOutDir: false,
      assetsDir: "site",
      assetsInlineLimit: 0,
      // The browsers the extension supports (package.json engines) load modules and modulepreload natively.
      target: ["chrome120", "firefox140"],
      modulePreload: { polyfill: false },
      minify: mode === "production",
      sourcemap: mode === "development",
      reportCompressedSize: false,
      rollupOptions: { input: path.join(root, "src/site-mount/site.html") },
      watch: watch ? {} : null
    }
  }
  if (!watch) {
    await build(config)
    return sizeOf(buildDir)
  }
  const watcher = await build(config)
  let state = "first build"
  await new Promise((resolve, reject) => {
    watcher.on("event", (event) => {
      if (event.result) event.result.close()
      if (state === "failed") return
      if (event.code === "ERROR" && state === "first build") {
        // A first build that fails stops its watcher: the caller tries again after the next Plasmo build, with a new one.
        state = "failed"
        void watcher.close()
        return reject(event.error)
      }
      if (event.code === "ERROR") return console.error(`[extension] The site mount did not build: ${event.error.message}`)
      if (event.code !== "END") return
      if (state === "first build") {
        state = "watching"
        return resolve()
      }
      onRebuilt()
    })
  })
  return watcher
}

/** The site mount's bytes in `buildDir`: page, scripts and styles. */
function sizeOf(buildDir) {
  const folder = path.join(buildDir, SITE_MOUNT_ASSETS)
  const files = fs.readdirSync(folder).map((name) => path.join(folder, name))
  return [path.join(buildDir, SITE_MOUNT_PAGE), ...files].reduce((sum, file) => sum + fs.statSync(file).size, 0)
}
