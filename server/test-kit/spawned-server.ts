/** The real server process (the bundle npm start runs) for the tests that need one: crashes, several instances. */
import { spawn, type ChildProcess, type ChildProcessByStdio } from "node:child_process"
import fs from "node:fs"
import type { Readable } from "node:stream"
import { fileURLToPath } from "node:url"

import { inject } from "vitest"

import { embeddedDatabaseDir } from "../db/database"

import { ensureServerBuild, SERVER_BUNDLE } from "../../scripts/server-build.mjs"
import { freePort } from "../../tests/free-port"

export const PROJECT_ROOT = fileURLToPath(new URL("../..", import.meta.url))

export interface SpawnedServer {
  url: string
  child: ChildProcess
  exited: Promise<void>
  output(): string
}

const children = new Set<ChildProcess>()

/**
 * Starts the server's bundle (scripts/server-build.mjs) as npm start runs it, without start.mjs's `.env` and web build,
 * which the tests set themselves. The run's global setup built it; a source changed since (vitest's watch mode) has
 * it built again here, so a test never runs stale code.
 */
export async function spawnServerProcess(env: NodeJS.ProcessEnv, nodeArgs: string[] = []): Promise<ChildProcessByStdio<null, Readable, Readable>> {
  await ensureServerBuild()
  return spawn(process.execPath, ["--enable-source-maps", ...nodeArgs, SERVER_BUNDLE], { cwd: PROJECT_ROOT, env, stdio: ["ignore", "pipe", "pipe"] })
}

/**
 * Kills what spawnServer started and is still running: after each API test file (tests/setup/api-file.ts, a setup
 * file, since with isolate off this module is loaded once per worker, not once per file).
 */
export function killSpawnedServers(): void {
  for (const child of children) child.kill("SIGKILL")
  children.clear()
}

interface SpawnOptions {
  /** Options for node before the bundle's path (--import a module of the test's). */
  nodeArgs?: string[]
  /** The variables the server inherits: this process's by default. */
  inherited?: NodeJS.ProcessEnv
}

/**
 * Starts the server on a free port with these variables (NODE_ENV=test, errors logged) and waits for /api/status. An
 * embedded database not yet in DATA_DIR starts as a copy of the run's migrated seed, as the server would have made
 * it (creating and migrating it was half of a start); a restart on the same DATA_DIR opens what the last run left.
 */
export async function spawnServer(env: Record<string, string>, { nodeArgs = [], inherited = process.env }: SpawnOptions = {}): Promise<SpawnedServer> {
  const seed = inject("databaseSeedDir")
  if (seed && env.DATA_DIR && !env.DATABASE_URL && !fs.existsSync(embeddedDatabaseDir(env.DATA_DIR))) {
    fs.cpSync(seed, embeddedDatabaseDir(env.DATA_DIR), { recursive: true })
  }
  const port = await freePort()
  const child = await spawnServerProcess({ ...inherited, NODE_ENV: "test", LOG_LEVEL: "error", PORT: String(port), ...env }, nodeArgs)
  children.add(child)
  let output = ""
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
  const url = `http://127.0.0.1:${port}`
  for (let waited = 0; ; waited += 100) {
    if (child.exitCode !== null) throw new Error(`the server exited:\n${output}`)
    if (waited > 90_000) throw new Error(`the server did not start:\n${output}`)
    if (await fetch(`${url}/api/status`).then((response) => response.ok, () => false)) break
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return { url, child, exited, output: () => output }
}
