// `npm start`: builds the web site when its build is missing or older than its sources, then serves
// the site and /api in this process (so SIGTERM reaches the server directly).
import { spawnSync } from "node:child_process"
import fs from "node:fs"
import path from "node:path"
import { fileURLToPath } from "node:url"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const webRoot = path.resolve(process.env.WEB_ROOT ?? path.join(root, "dist/web"))
const builtIndex = path.join(webRoot, "index.html")
const sourceFolders = ["src", "web", "assets"].map((folder) => path.join(root, folder))
const sourceFiles = ["package.json", "tailwind.config.cjs", ".postcssrc.json"].map((file) => path.join(root, file))

function newestModification(entry) {
  let stat
  try {
    stat = fs.statSync(entry)
  } catch {
    return 0
  }
  if (!stat.isDirectory()) return stat.mtimeMs
  let newest = stat.mtimeMs
  for (const child of fs.readdirSync(entry)) newest = Math.max(newest, newestModification(path.join(entry, child)))
  return newest
}

function webBuildIsCurrent() {
  if (!fs.existsSync(builtIndex)) return false
  const builtAt = fs.statSync(builtIndex).mtimeMs
  return [...sourceFolders, ...sourceFiles].every((entry) => newestModification(entry) <= builtAt)
}

if (!process.env.WEB_ROOT && !webBuildIsCurrent()) {
  console.log("Building the web site (dist/web)…")
  const build = spawnSync(process.execPath, [path.join(root, "node_modules/vite/bin/vite.js"), "build", "--config", "web/vite.config.ts", "--logLevel", "warn"], {
    cwd: root,
    stdio: "inherit"
  })
  if (build.status !== 0) {
    console.error("The web build failed; see the messages above.")
    process.exit(1)
  }
}

const { register } = await import("tsx/esm/api")
register()
await import(path.join(root, "server/main.ts"))
