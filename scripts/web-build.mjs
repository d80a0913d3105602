// When the static web build (dist/web) is out of date, and how to make it: shared by npm start
// and the benchmarks, so both agree on what "current" means.
import { spawnSync } from "node:child_process"
import fs from "node:fs"
import path from "node:path"
import { fileURLToPath } from "node:url"

export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
export const defaultWebRoot = path.join(projectRoot, "dist/web")

const SOURCES = ["src", "web", "assets", "package.json", "tailwind.config.cjs", ".postcssrc.json"]

function newestModification(entry) {
  const stat = fs.statSync(entry, { throwIfNoEntry: false })
  if (!stat) return 0
  if (!stat.isDirectory()) return stat.mtimeMs
  return fs.readdirSync(entry).reduce((newest, child) => Math.max(newest, newestModification(path.join(entry, child))), stat.mtimeMs)
}

/** The build is current when its index.html exists and is newer than every source. */
export function webBuildIsCurrent(webRoot = defaultWebRoot) {
  const built = fs.statSync(path.join(webRoot, "index.html"), { throwIfNoEntry: false })
  return built !== undefined && SOURCES.every((entry) => newestModification(path.join(projectRoot, entry)) <= built.mtimeMs)
}

/** Runs the Vite build; `output` is where its messages go ("inherit", or 2 for stderr only). */
export function buildWeb({ output = "inherit" } = {}) {
  const vite = path.join(projectRoot, "node_modules/vite/bin/vite.js")
  const build = spawnSync(process.execPath, [vite, "build", "--config", "web/vite.config.ts", "--logLevel", "warn"], {
    cwd: projectRoot,
    // Always the production build: a NODE_ENV inherited from the caller (a test runner sets "test", a shell may set
    // "development") would otherwise give the served site React's development build.
    env: { ...process.env, NODE_ENV: "production" },
    stdio: ["ignore", output, output]
  })
  if (build.status !== 0) throw new Error(`The web build failed (exit ${build.status ?? build.signal}); see the messages above.`)
}
