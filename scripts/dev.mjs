// `npm run dev`: the whole product in development, in one terminal.
//   [api]       the API server under `tsx watch`: it restarts when a file it imports changes, or on Enter
//   [site]      Vite's dev server with hot reload on PORT (default 8787, the address `npm start` serves), proxying
//               /api to the API server on DEV_API_PORT (default 8788, on 127.0.0.1 only)
//   [extension] `plasmo dev` into build/chrome-mv3-dev (PLASMO_BUILD_PATH moves it), then the steps
//               `npm run build:extension` adds after Plasmo (engine files, page index, trusted site origins), and
//               the site mount (the site's extension page) built by Vite, rebuilt when a file of it changes (scripts/site-mount-build.mjs)
// The site keeps npm start's address because everything else expects it there: the extension's default API address
// (PLASMO_PUBLIC_API_URL) and the site origins the dev build trusts (externally_connectable in package.json).
//
// Each child runs in its own process group (detached), so what it starts in turn (tsx's server process, Plasmo's
// shells) is reached by a signal to the group. Ctrl+C (SIGINT to the terminal's group, which no longer holds the
// children), or SIGINT/SIGTERM to this process alone, is passed on to every group; a second Ctrl+C, or 5 s without
// the groups emptying, kills them. Exit status: 0 when every group ended on the signal (`npm run dev` still reports
// 130 after Ctrl+C: npm gets the SIGINT too), 1 when one had to be killed, when a child stopped by itself, or when a
// port is taken at start.
// No concurrently or npm-run-all: neither is installed, and the steps after each Plasmo build hang on its output;
// prefixing lines and signalling groups is a few lines here.
import { spawn } from "node:child_process"
import fs from "node:fs"
import net from "node:net"
import path from "node:path"
import { setTimeout as sleep } from "node:timers/promises"

import { buildPageIndex, copyEngineAssets, writeSiteOrigins } from "./copy-extension-assets.mjs"
import { buildSiteMount } from "./site-mount-build.mjs"
import { projectRoot } from "./web-build.mjs"

const GRACE_MS = 5_000

// As in `npm start`: a `.env` fills in what the environment leaves unset.
if (fs.existsSync(".env")) process.loadEnvFile(".env")
// The steps after the extension's build load TypeScript through tsx, which finds tsconfig.json's path aliases (~core/…)
// in the working directory: from any directory, work in the project's.
process.chdir(projectRoot)

function port(name, fallback) {
  const value = process.env[name] || String(fallback)
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 65535) fail(`${name} must be a whole number from 1 to 65535 (got ${JSON.stringify(value)}).`)
  return Number(value)
}

function fail(message) {
  console.error(message)
  process.exit(1)
}

const host = process.env.HOST || "127.0.0.1"
const sitePort = port("PORT", 8787)
const apiPort = port("DEV_API_PORT", 8788)
// Plasmo takes the next free port when these are taken, so they are not checked here.
const extensionServePort = port("DEV_EXTENSION_SERVE_PORT", 1012)
const extensionHmrPort = port("DEV_EXTENSION_HMR_PORT", 1815)
const siteUrl = `http://localhost:${sitePort}`
const extensionDir = path.resolve(projectRoot, process.env.PLASMO_BUILD_PATH || "build", `${process.env.PLASMO_TARGET || "chrome-mv3"}-dev`)

/** True when nothing listens on host:port: a taken port is said here once, before anything starts. */
function portIsFree(port, host) {
  return new Promise((resolve) => {
    const probe = net.createServer()
    probe.once("error", () => resolve(false))
    probe.listen(port, host, () => probe.close(() => resolve(true)))
  })
}

for (const [name, portNumber, portHost] of [["PORT (the site)", sitePort, host], ["DEV_API_PORT (the API server)", apiPort, "127.0.0.1"]]) {
  if (!(await portIsFree(portNumber, portHost))) fail(`Cannot start: port ${portNumber} on ${portHost} is in use. Stop what uses it, or set ${name} to a free port.`)
}

// The extension's API address and trusted site origin follow the site's port (both default to localhost:8787).
process.env.PLASMO_PUBLIC_API_URL ||= siteUrl
const shared = {
  ...process.env,
  NODE_ENV: "development",
  // Children write into pipes, not the terminal: keep their colours when the terminal has them.
  ...(process.stdout.isTTY && !process.env.FORCE_COLOR ? { FORCE_COLOR: "1" } : {})
}
const bin = (file) => path.join(projectRoot, "node_modules", file)

const CHILDREN = [
  {
    name: "api",
    args: [bin("tsx/dist/cli.mjs"), "watch", "--clear-screen=false", "--tsconfig", path.join(projectRoot, "tsconfig.json"), "server/main.ts"],
    // Links in mail and pages go to the site the developer opens, not to the API's own port.
    env: { HOST: "127.0.0.1", PORT: String(apiPort), PUBLIC_URL: process.env.PUBLIC_URL || siteUrl }
  },
  {
    name: "site",
    args: [bin("vite/bin/vite.js"), "--config", "web/vite.config.ts", "--host", host, "--port", String(sitePort), "--strictPort", "--clearScreen", "false"],
    env: { DEV_API_PORT: String(apiPort) }
  },
  {
    name: "extension",
    args: [bin("plasmo/bin/index.mjs"), "dev", `--serve-port=${extensionServePort}`, `--hmr-port=${extensionHmrPort}`],
    env: {}
  }
]

const children = []
let stopping = false

/** Writes a child's output line by line under its name; a line Plasmo's spinner rewrote (\r) shows its last state. */
function prefixLines(stream, name, write, onLine) {
  let pending = ""
  const show = (line) => {
    const shown = line.replace(/\r$/, "").split("\r").at(-1)
    write(`[${name}] ${shown}\n`)
    onLine(shown)
  }
  stream.setEncoding("utf8")
  stream.on("data", (chunk) => {
    const lines = (pending + chunk).split("\n")
    pending = lines.pop()
    lines.forEach(show)
  })
  stream.on("end", () => pending && show(pending))
}

/** Signals a child's whole group; a group already gone is fine. */
function signalGroup(child, signal) {
  try {
    process.kill(-child.process.pid, signal)
  } catch (error) {
    if (error.code !== "ESRCH") throw error
  }
}

function groupIsGone(child) {
  try {
    process.kill(-child.process.pid, 0)
    return false
  } catch (error) {
    return error.code === "ESRCH"
  }
}

/**
 * Passes `signal` on to every group, waits for them to empty (killing what is left after GRACE_MS), and exits with
 * `code`, or 1 when a group had to be killed.
 */
async function stopAll(signal, reason, code) {
  if (stopping) {
    console.error("Killing every process now.")
    children.forEach((child) => signalGroup(child, "SIGKILL"))
    process.exit(1)
  }
  stopping = true
  console.error(reason)
  children.forEach((child) => signalGroup(child, signal))
  const deadline = Date.now() + GRACE_MS
  while (children.some((child) => !groupIsGone(child)) && Date.now() < deadline) await sleep(100)
  const left = children.filter((child) => !groupIsGone(child))
  for (const child of left) {
    console.error(`[${child.name}] still running ${GRACE_MS / 1000} s after ${signal}: killed.`)
    signalGroup(child, "SIGKILL")
  }
  while (left.some((child) => !groupIsGone(child))) await sleep(50)
  process.exit(left.length > 0 ? 1 : code)
}

// After each Plasmo build, what `npm run build:extension` does after `plasmo build`, else the dev extension lacks its
// engines and its page index. Plasmo 0.90.5 (pinned) says "Extension re-packaged" when a build is written.
// The site mount is no part of Plasmo's build: its watcher starts after Plasmo's first build has made the folder.
let postBuild = Promise.resolve()
let siteMountWatcher = null
function afterExtensionBuild() {
  postBuild = postBuild.then(async () => {
    try {
      copyEngineAssets(extensionDir)
      await buildPageIndex(extensionDir)
      siteMountWatcher ??= await buildSiteMount(extensionDir, { watch: true, onRebuilt: () => console.log("[extension] Site mount rebuilt") })
      const origins = await writeSiteOrigins(extensionDir)
      console.log(`[extension] Engine files, page index, site mount and trusted site origins (${origins.join(", ")}) written into ${extensionDir}`)
    } catch (error) {
      console.error(`[extension] The steps after the build failed: ${error.message}`)
    } finally {
      // esbuild keeps its service process (a child of this script) after a build: stop it, so that between builds
      // every process of ours is in a child's group.
      ;(await import("esbuild")).stop()
    }
  })
}

console.log(`Image Query AI in development:
  site       ${siteUrl} (Vite, hot reload; /api goes to the API server)
  API        http://127.0.0.1:${apiPort}/api (restarts when a server file changes; press Enter to restart it now)
  extension  ${extensionDir} (load it unpacked from chrome://extensions once it is built; it reloads on change)
Ctrl+C stops everything.`)

for (const { name, args, env } of CHILDREN) {
  const child = spawn(process.execPath, args, {
    env: { ...shared, ...env },
    detached: true,
    stdio: [name === "api" ? "pipe" : "ignore", "pipe", "pipe"]
  })
  const onLine = name === "extension" ? (line) => line.includes("Extension re-packaged") && afterExtensionBuild() : () => {}
  prefixLines(child.stdout, name, (text) => process.stdout.write(text), onLine)
  prefixLines(child.stderr, name, (text) => process.stderr.write(text), () => {})
  child.on("exit", (code, signal) => {
    if (!stopping) stopAll("SIGTERM", `[${name}] stopped by itself (${signal ?? `exit code ${code}`}); stopping the others.`, 1)
  })
  children.push({ name, process: child })
}

// tsx watch reruns the server on any input: Enter here restarts the API server.
const api = children[0].process
api.stdin.on("error", () => {})
process.stdin.on("data", (data) => api.stdin.write(data))

process.on("SIGINT", () => stopAll("SIGINT", "Stopping…", 0))
process.on("SIGTERM", () => stopAll("SIGTERM", "Stopping…", 0))
