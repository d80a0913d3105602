import { spawn, type ChildProcess } from "node:child_process"
import fs from "node:fs"
import http from "node:http"
import type net from "node:net"
import os from "node:os"
import path from "node:path"
import { freePort } from "../free-port"

/**
 * Names a migrated, empty embedded database folder (tests/setup/e2e-global-setup.ts) that startServer copies into
 * each fresh DATA_DIR, as the server would have made it there: unset (the bench), the server makes its own.
 */
export const E2E_DATABASE_SEED_VARIABLE = "IQA_E2E_DATABASE_SEED"

export interface RunningServer {
  url: string
  port: number
  dataDir: string
  process: ChildProcess
  output: () => string
  /** Sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null>
}

/**
 * Starts the product exactly as `npm start` does (scripts/start.mjs) on a free port and a fresh DATA_DIR. With
 * `publicUrlIsServer`, PUBLIC_URL is the address the tests browse (http://127.0.0.1:port), as in production, where the
 * site's own pages show what the server links to (an organisation's logo) under the site's CSP. `publicHost` names
 * another host for it: "localhost" where the browser refuses an IP address (a passkey's relying party is a domain).
 */
export async function startServer(env: Record<string, string> = {}, { publicUrlIsServer = false, publicHost = "127.0.0.1" } = {}): Promise<RunningServer> {
  const port = await freePort()
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "iqa-e2e-data-"))
  const seed = process.env[E2E_DATABASE_SEED_VARIABLE]
  if (seed && !env.DATABASE_URL) fs.cpSync(seed, path.join(dataDir, "db"), { recursive: true })
  const child = spawn(process.execPath, ["scripts/start.mjs"], {
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: "warn", ...(publicUrlIsServer ? { PUBLIC_URL: `http://${publicHost}:${port}` } : {}), ...env },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)))

  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 90_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The server exited with ${child.exitCode}:\n${output}`)
    if (Date.now() > deadline) {
      child.kill("SIGKILL")
      throw new Error(`The server did not answer within 90 s:\n${output}`)
    }
    const ready = await fetch(`${url}/api/status`).then((response) => response.ok, () => false)
    if (ready) break
    await new Promise((resolve) => setTimeout(resolve, 100))
  }

  return {
    url,
    port,
    dataDir,
    process: child,
    output: () => output,
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM")
      const code = await exited
      fs.rmSync(dataDir, { recursive: true, force: true })
      return code
    }
  }
}

/** A plain static server on 127.0.0.1 for fixture pages that the extension scans. */
export async function serveFixtures(folder: string): Promise<{ url: string; close(): Promise<void> }> {
  const types: Record<string, string> = { ".html": "text/html; charset=utf-8", ".png": "image/png", ".jpg": "image/jpeg", ".svg": "image/svg+xml" }
  const server = http.createServer((request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? "/", "http://fixture").pathname)
    const file = path.join(folder, path.normalize(pathname).replace(/^(\.\.[/\\])+/, ""))
    if (!file.startsWith(folder) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      response.writeHead(404).end("not found")
      return
    }
    response.writeHead(200, { "content-type": types[path.extname(file)] ?? "application/octet-stream" })
    fs.createReadStream(file).pipe(response)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as net.AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve()))
  }
}

/**
 * A page from an origin outside the extension's allow list (another port of 127.0.0.1), for the hostile-page tests:
 * `body` is its HTML at every path.
 */
export async function serveHostilePage(body = "<p>Nothing to see</p>"): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(`<!doctype html><title>Hostile</title>${body}`)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as net.AddressInfo
  // The browser keeps its connections open: they are closed with the server, or close() would wait for them.
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))) }
}
