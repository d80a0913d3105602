import { spawn, type ChildProcess } from "node:child_process"
import fs from "node:fs"
import net from "node:net"
import os from "node:os"
import path from "node:path"

import { afterEach, describe, expect, it } from "vitest"

import { PAGE_INDEX_FILE } from "~extension/messaging/messages"
import { siteMountProblems } from "../../scripts/package-extension.mjs"

import { freePort } from "../free-port"

/**
 * `npm run dev` (scripts/dev.mjs) as a terminal runs it: in a process group of its own, stopped by SIGINT to that
 * group. Every port is a free one and every file goes to a temporary folder (data, embedded database, the dev
 * extension), so a developer's own `npm run dev`, ./data and build/chrome-mv3-dev are left alone. Plasmo still
 * rewrites .plasmo/ in the project, as every Plasmo build does: the browser files run after npm test's builds,
 * and none of them reads .plasmo/. Linux only: the processes are read from /proc.
 */

interface ProcessEntry {
  pid: number
  ppid: number
  pgid: number
  state: string
  /** Start time since boot: with the pid, tells a process from a later one that got the same pid. */
  started: string
  command: string
}

function processTable(): ProcessEntry[] {
  const entries: ProcessEntry[] = []
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue
    let stat: string
    let command: string
    try {
      stat = fs.readFileSync(`/proc/${name}/stat`, "utf8")
      command = fs.readFileSync(`/proc/${name}/cmdline`, "utf8").replaceAll("\0", " ")
    } catch {
      continue // ended while the table was read
    }
    // The command name in parentheses may hold spaces: the fields are counted from its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    entries.push({ pid: Number(name), state: fields[0]!, ppid: Number(fields[1]), pgid: Number(fields[2]), started: fields[19]!, command })
  }
  return entries
}

/** Every process below `root`, through parent links. */
function descendants(root: number): ProcessEntry[] {
  const table = processTable()
  const found: ProcessEntry[] = []
  let parents = new Set([root])
  while (parents.size > 0) {
    const children = table.filter((entry) => parents.has(entry.ppid))
    found.push(...children)
    parents = new Set(children.map((entry) => entry.pid))
  }
  return found
}

/** The processes of `snapshot`, and any process of their groups, still running (a zombie has ended). */
function survivors(snapshot: ProcessEntry[]): ProcessEntry[] {
  const groups = new Set(snapshot.map((entry) => entry.pgid))
  const same = (entry: ProcessEntry) => snapshot.some((old) => old.pid === entry.pid && old.started === entry.started)
  return processTable().filter((entry) => entry.state !== "Z" && (same(entry) || groups.has(entry.pgid)))
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer()
    probe.once("error", () => resolve(false))
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)))
  })
}

async function distinctFreePorts(count: number): Promise<number[]> {
  const ports = new Set<number>()
  while (ports.size < count) ports.add(await freePort())
  return [...ports]
}

interface Dev {
  process: ChildProcess
  dir: string
  ports: { site: number; api: number; extensionServe: number; extensionHmr: number }
  output: () => string
  /** The processes seen below dev (snapshot), for the clean-up after a failed test. */
  seen: ProcessEntry[]
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

const started: Dev[] = []

async function startDev(overrides: Record<string, string> = {}): Promise<Dev> {
  const [site, api, extensionServe, extensionHmr] = (await distinctFreePorts(4)) as [number, number, number, number]
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "iqa-dev-command-"))
  const child = spawn(process.execPath, ["scripts/dev.mjs"], {
    // Its own process group, as a terminal's foreground job.
    detached: true,
    stdio: ["pipe", "pipe", "pipe"],
    env: {
      ...process.env,
      PORT: String(site),
      DEV_API_PORT: String(api),
      DEV_EXTENSION_SERVE_PORT: String(extensionServe),
      DEV_EXTENSION_HMR_PORT: String(extensionHmr),
      DATA_DIR: path.join(dir, "data"),
      PLASMO_BUILD_PATH: path.join(dir, "build"),
      LOG_LEVEL: "warn",
      // Set empty, a developer's .env cannot change them: the embedded database, and the extension's defaults.
      DATABASE_URL: "",
      PLASMO_PUBLIC_API_URL: "",
      PLASMO_PUBLIC_SITE_ORIGINS: "",
      ...overrides
    }
  })
  let output = ""
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })))
  const dev = { process: child, dir, ports: { site, api, extensionServe, extensionHmr }, output: () => output, seen: [], exited }
  started.push(dev)
  return dev
}

/** Polls `check` until it holds; fails with the dev output when the time is up or dev stopped. */
async function until(dev: Dev, what: string, check: () => Promise<boolean> | boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    if (await check()) return
    if (dev.process.exitCode !== null) throw new Error(`npm run dev exited with ${dev.process.exitCode} before ${what}:\n${dev.output()}`)
    if (Date.now() > deadline) throw new Error(`No ${what} within ${timeoutMs / 1000} s:\n${dev.output()}`)
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

async function answersOk(url: string): Promise<boolean> {
  return fetch(url).then((response) => response.ok, () => false)
}

function withinSeconds<T>(promise: Promise<T>, seconds: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} took over ${seconds} s`)), seconds * 1000)))
  return Promise.race([promise, late]).finally(() => clearTimeout(timer))
}

/** The processes below dev now, remembered for the clean-up. */
function snapshot(dev: Dev): ProcessEntry[] {
  const below = descendants(dev.process.pid!)
  dev.seen.push(...below)
  return below
}

async function expectEverythingGone(dev: Dev, snapshot: ProcessEntry[]) {
  expect(survivors(snapshot).map((entry) => `${entry.pid} ${entry.command}`)).toEqual([])
  for (const port of Object.values(dev.ports)) expect(await portIsFree(port), `port ${port}`).toBe(true)
}

afterEach(() => {
  // Whatever a failed test left: dev itself, the processes below it, and any of theirs still running.
  for (const dev of started.splice(0)) {
    const running = dev.process.exitCode === null && dev.process.signalCode === null
    const left = survivors([...dev.seen, ...(running ? descendants(dev.process.pid!) : [])])
    for (const pid of [...left.map((entry) => entry.pid), ...(running ? [dev.process.pid!] : [])]) {
      try {
        process.kill(pid, "SIGKILL")
      } catch {
        // ended meanwhile
      }
    }
    fs.rmSync(dev.dir, { recursive: true, force: true })
  }
})

describe("npm run dev", () => {
  it("serves the API, the site with hot reload and /api, and the dev extension; one SIGINT to its group stops every process", async () => {
    const dev = await startDev()
    const { site, api } = dev.ports
    const extensionDir = path.join(dev.dir, "build/chrome-mv3-dev")

    await until(dev, "API answer", () => answersOk(`http://127.0.0.1:${api}/api/status`), 120_000)
    const page = await fetch(`http://127.0.0.1:${site}/`).then((response) => response.text())
    expect(page).toContain("<title>Image Query AI</title>")
    // Vite's dev server, not a static build: its client (hot reload) is in the page.
    expect(page).toContain("/@vite/client")
    const proxied = await fetch(`http://127.0.0.1:${site}/api/status`)
    expect(proxied.status).toBe(200)
    expect(((await proxied.json()) as { data: { name: string } }).data.name).toBe("Image Query AI")
    expect(dev.output()).toContain(`site       http://localhost:${site}`)
    expect(dev.output()).toContain(`extension  ${extensionDir}`)

    // The Plasmo build, then what build:extension adds to it: engine files, page index, the site's origin trusted.
    await until(dev, "dev extension", () => dev.output().includes("[extension] Engine files, page index, site mount and trusted site origins"), 180_000)
    const manifest = JSON.parse(fs.readFileSync(path.join(extensionDir, "manifest.json"), "utf8")) as { externally_connectable: { matches: string[] } }
    expect(manifest.externally_connectable.matches).toContain(`http://localhost:${site}/*`)
    expect(fs.existsSync(path.join(extensionDir, PAGE_INDEX_FILE))).toBe(true)
    expect(fs.existsSync(path.join(extensionDir, "engines/ocr/worker.min.js"))).toBe(true)
    // The site mount's page, built by Vite's watcher with its modules beside it.
    expect(siteMountProblems(extensionDir)).toEqual([])

    // Enter restarts the API server (tsx watch reruns it, as on a change): it serves again on its port.
    const serving = () => dev.output().split("is serving the site and /api").length - 1
    const servedBefore = serving()
    dev.process.stdin!.write("\n")
    await until(dev, "restarted API", async () => serving() > servedBefore && (await answersOk(`http://127.0.0.1:${site}/api/status`)), 60_000)

    const below = snapshot(dev)
    // tsx (with the API server below it), Vite and Plasmo, each the leader of a process group of its own.
    const children = below.filter((entry) => entry.ppid === dev.process.pid && /node_modules\/(tsx|vite|plasmo)\//.test(entry.command))
    expect(children.map((entry) => entry.pgid === entry.pid)).toEqual([true, true, true])
    const tsx = children.find((entry) => entry.command.includes("tsx/dist/cli.mjs"))!
    expect(below.some((entry) => entry.ppid === tsx.pid && entry.pgid === tsx.pid)).toBe(true)

    const stopping = Date.now()
    process.kill(-dev.process.pid!, "SIGINT")
    const { code, signal } = await withinSeconds(dev.exited, 15, "Stopping")
    console.warn(`npm run dev stopped in ${((Date.now() - stopping) / 1000).toFixed(1)} s`)
    // 0: every group ended on the SIGINT, none had to be killed.
    expect({ code, signal }).toEqual({ code: 0, signal: null })
    await expectEverythingGone(dev, below)
  }, 420_000)

  it("stops the others and exits 1 when one of its processes stops by itself", async () => {
    const dev = await startDev()
    await until(dev, "site answer", () => answersOk(`http://127.0.0.1:${dev.ports.site}/`), 60_000)
    const below = snapshot(dev)
    const vite = below.find((entry) => entry.command.includes("vite/bin/vite.js"))
    expect(vite).toBeDefined()

    process.kill(vite!.pid, "SIGKILL")
    const { code } = await withinSeconds(dev.exited, 15, "Stopping")
    expect(code).toBe(1)
    expect(dev.output()).toContain("[site] stopped by itself (SIGKILL); stopping the others.")
    await expectEverythingGone(dev, below)
  }, 120_000)

  it("says which port is taken and starts nothing", async () => {
    const taken = net.createServer()
    const port = await freePort()
    await new Promise<void>((resolve) => taken.listen(port, "127.0.0.1", resolve))
    try {
      const dev = await startDev({ PORT: String(port) })
      expect(await withinSeconds(dev.exited, 30, "Refusing")).toEqual({ code: 1, signal: null })
      expect(dev.output()).toContain(`Cannot start: port ${port} on 127.0.0.1 is in use. Stop what uses it, or set PORT (the site) to a free port.`)
      expect(dev.output()).not.toMatch(/^\[(api|site|extension)\]/m)
    } finally {
      await new Promise((resolve) => taken.close(resolve))
    }
  })
})
