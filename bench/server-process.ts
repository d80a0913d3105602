import { spawn, type ChildProcess } from "node:child_process"
import http from "node:http"
import net from "node:net"
import { performance } from "node:perf_hooks"
import { setTimeout as sleep } from "node:timers/promises"

import { CONFIG_VARIABLES } from "../server/config"
import { projectRoot } from "./web-build"

const STATUS_POLL_INTERVAL_MS = 20
const STATUS_REQUEST_TIMEOUT_MS = 1_000
const START_TIMEOUT_MS = 60_000
/** Longer than the server's own 10 s shutdown grace, so a slow close is reported rather than cut short. */
const STOP_TIMEOUT_MS = 15_000
/** What scripts/start.mjs prints when it rebuilds the site, which would make a start figure meaningless. */
const BUILD_MESSAGE = "Building the web site"

export interface RunningServer {
  baseUrl: string
  /** The server's process (its peak memory is /proc/<pid>/status's VmHWM). */
  pid: number
  /** From spawn to the first 2xx answer of GET /api/status. */
  startMs: number
  /** Whether scripts/start.mjs rebuilt the web site during the timed start. */
  rebuiltWebSite: boolean
  /** Sends SIGTERM and waits for the exit. */
  stop(): Promise<{ shutdownMs: number; exitCode: number | null }>
  /** SIGKILL if still running; safe to call at any time. */
  kill(): void
}

// However the bench ends (error, watchdog, Ctrl-C, kill), no server may outlive it holding a port.
// A signal's default action skips "exit" handlers, hence exiting explicitly on SIGINT and SIGTERM.
const liveServers = new Set<ChildProcess>()
process.on("exit", () => {
  for (const child of liveServers) child.kill("SIGKILL")
})
process.once("SIGINT", () => process.exit(130))
process.once("SIGTERM", () => process.exit(143))

/**
 * Starts the product as `npm start` does (node scripts/start.mjs) on a free loopback port and times
 * it until it answers. Kills the child itself if it never does.
 */
export async function startServer(dataDir: string, extraEnvironment: Record<string, string> = {}): Promise<RunningServer> {
  const port = await findFreePort()
  const baseUrl = `http://127.0.0.1:${port}`
  let output = ""

  const spawnedAt = performance.now()
  const child = spawn(process.execPath, ["scripts/start.mjs"], {
    cwd: projectRoot,
    env: { ...serverEnvironment(port, dataDir), ...extraEnvironment },
    stdio: ["ignore", "pipe", "pipe"]
  })
  liveServers.add(child)
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
  void exited.then(() => liveServers.delete(child))
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk))
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (output += chunk))
  const hasExited = () => child.exitCode !== null || child.signalCode !== null
  const kill = () => {
    if (!hasExited()) child.kill("SIGKILL")
  }

  try {
    const deadline = spawnedAt + START_TIMEOUT_MS
    for (;;) {
      if (hasExited()) throw new Error(`The server exited (${child.exitCode ?? child.signalCode}) before answering:\n${output}`)
      if (performance.now() > deadline) throw new Error(`The server did not answer within ${START_TIMEOUT_MS / 1000} s:\n${output}`)
      const status = await statusCodeOf(`${baseUrl}/api/status`)
      if (status !== undefined && status >= 200 && status < 300) break
      await sleep(STATUS_POLL_INTERVAL_MS)
    }
  } catch (error) {
    kill()
    throw error
  }
  const startMs = performance.now() - spawnedAt

  return {
    baseUrl,
    pid: child.pid!,
    startMs,
    rebuiltWebSite: output.includes(BUILD_MESSAGE),
    kill,
    async stop() {
      const signalledAt = performance.now()
      child.kill("SIGTERM")
      const timedOut = await Promise.race([exited.then(() => false), sleep(STOP_TIMEOUT_MS, true, { ref: false })])
      if (timedOut) {
        kill()
        throw new Error(`The server did not exit within ${STOP_TIMEOUT_MS / 1000} s of SIGTERM:\n${output}`)
      }
      return { shutdownMs: performance.now() - signalledAt, exitCode: child.exitCode }
    }
  }
}

/**
 * The inherited environment minus every variable the server reads, so a developer's own settings
 * (DATABASE_URL, WEB_ROOT, HOST…) cannot change what is measured; then only what the bench means.
 */
function serverEnvironment(port: number, dataDir: string): NodeJS.ProcessEnv {
  const inherited = { ...process.env }
  for (const name of CONFIG_VARIABLES) delete inherited[name]
  return { ...inherited, HOST: "127.0.0.1", PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: "warn" }
}

/**
 * node:http rather than fetch: fetch loads undici on its first call, which would be timed as
 * server start.
 */
function statusCodeOf(url: string): Promise<number | undefined> {
  return new Promise((resolve) => {
    const request = http.get(url, { agent: false, timeout: STATUS_REQUEST_TIMEOUT_MS }, (response) => {
      response.resume()
      resolve(response.statusCode)
    })
    request.on("timeout", () => request.destroy())
    request.on("error", () => resolve(undefined))
  })
}

function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer()
    probe.once("error", reject)
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo
      probe.close(() => resolve(port))
    })
  })
}
