/** The real server process (server/main.ts under tsx) for the tests that need one: crashes, several instances. */
import { spawn, type ChildProcess } from "node:child_process"
import fs from "node:fs"
import { fileURLToPath } from "node:url"

import { inject } from "vitest"

import { embeddedDatabaseDir } from "../db/database"

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
 * Kills what spawnServer started and is still running: after each API test file (tests/setup/api-file.ts, a setup
 * file, since with isolate off this module is loaded once per worker, not once per file).
 */
export function killSpawnedServers(): void {
  for (const child of children) child.kill("SIGKILL")
  children.clear()
}

/**
 * Starts the server on a free port with these variables (NODE_ENV=test, errors logged) and waits for /api/status. An
 * embedded database not yet in DATA_DIR starts as a copy of the run's migrated seed, as the server would have made
 * it (creating and migrating it was half of a start); a restart on the same DATA_DIR opens what the last run left.
 */
export async function spawnServer(env: Record<string, string>): Promise<SpawnedServer> {
  const seed = inject("databaseSeedDir")
  if (seed && env.DATA_DIR && !env.DATABASE_URL && !fs.existsSync(embeddedDatabaseDir(env.DATA_DIR))) {
    fs.cpSync(seed, embeddedDatabaseDir(env.DATA_DIR), { recursive: true })
  }
  const port = await freePort()
  const child = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, NODE_ENV: "test", LOG_LEVEL: "error", PORT: String(port), ...env },
    stdio: ["ignore", "pipe", "pipe"]
  })
  children.add(child)
  let output = ""
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()))
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()))
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
