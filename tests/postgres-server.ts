/**
 * A throw-away PostgreSQL cluster of a test's own (initdb into a temp folder, on a free loopback port), which the test
 * may shut down, start again and freeze: the fault tests (server/faults.test.ts). The shared cluster the api-postgres
 * files use is never touched.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process"
import fs from "node:fs"
import os from "node:os"
import path from "node:path"

import pg from "pg"

import { freePort } from "./free-port"

/** Debian's binaries (apt-get install -y postgresql, which CI installs): the newest version there. */
const DEBIAN_POSTGRES_DIR = "/usr/lib/postgresql"

function postgresBinDir(): string | null {
  const versions = fs.existsSync(DEBIAN_POSTGRES_DIR) ? fs.readdirSync(DEBIAN_POSTGRES_DIR).filter((name) => /^\d+$/.test(name)) : []
  const newest = versions.sort((a, b) => Number(b) - Number(a)).find((version) => fs.existsSync(path.join(DEBIAN_POSTGRES_DIR, version, "bin", "initdb")))
  return newest ? path.join(DEBIAN_POSTGRES_DIR, newest, "bin") : null
}

/** Why a cluster of the test's own cannot be started here, or null. In CI its absence is an error, never a quiet skip. */
export function postgresServerUnavailableReason(): string | null {
  if (postgresBinDir()) return null
  if (process.env.CI) throw new Error(`PostgreSQL's initdb is missing under ${DEBIAN_POSTGRES_DIR} in CI: .ci/run installs postgresql`)
  return `PostgreSQL's initdb is not installed under ${DEBIAN_POSTGRES_DIR} (apt-get install -y postgresql)`
}

/** PostgreSQL refuses to run as root: then the cluster belongs to Debian's `postgres` user. */
function clusterOwner(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null
  const id = (flag: string) => Number(execFileSync("id", [flag, "postgres"], { encoding: "utf8" }).trim())
  return { uid: id("-u"), gid: id("-g") }
}

/** The processes whose parent is `pid` (a postmaster's backends and workers), from /proc. */
function childrenOf(pid: number): number[] {
  const children: number[] = []
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, "utf8")
      // The name in parentheses may hold spaces: the parent is the second field after it.
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1])
      if (parent === pid) children.push(Number(name))
    } catch {
      // The process ended while the folder was read.
    }
  }
  return children
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name)
  } catch {
    // Already gone.
  }
}

export interface OwnPostgres {
  url: string
  /** Shuts the cluster down (fast: sessions are ended) and waits for it to exit; start() brings it back on the same port. */
  stop(): Promise<void>
  start(): Promise<void>
  /**
   * Freezes every process of the cluster (SIGSTOP): connections stay open, connecting still succeeds at the socket,
   * and nothing answers, as with a hung host. resume() lets them go on where they were.
   */
  pause(): void
  resume(): void
  /** Ends the cluster for good and removes its folder. */
  destroy(): Promise<void>
}

export async function startOwnPostgres(): Promise<OwnPostgres> {
  const bin = postgresBinDir()
  if (!bin) throw new Error(postgresServerUnavailableReason() ?? "PostgreSQL is not installed")
  const owner = clusterOwner()
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "iqa-own-postgres-"))
  if (owner) fs.chownSync(folder, owner.uid, owner.gid)
  const dataDir = path.join(folder, "data")
  const asOwner = owner ? { uid: owner.uid, gid: owner.gid } : {}
  execFileSync(path.join(bin, "initdb"), ["-D", dataDir, "-U", "iqa", "--auth=trust", "-E", "UTF8", "--no-sync", "--no-instructions"], {
    ...asOwner,
    stdio: "pipe"
  })
  const port = await freePort()
  const url = `postgres://iqa@127.0.0.1:${port}/postgres`
  let child: ChildProcess | null = null
  let exited: Promise<void> = Promise.resolve()
  let paused: number[] = []

  const start = async () => {
    // fsync off: the cluster dies with the test; a fast shutdown still writes everything committed.
    const started = spawn(path.join(bin, "postgres"), ["-D", dataDir, "-p", String(port), "-k", folder, "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off"], {
      ...asOwner,
      stdio: "ignore"
    })
    child = started
    exited = new Promise((resolve) => started.once("exit", () => resolve()))
    const deadline = Date.now() + 30_000
    for (;;) {
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 })
      const up = await client.connect().then(
        () => client.query("select 1").then(() => true),
        () => false
      )
      await client.end().catch(() => {})
      if (up) return
      if (started.exitCode !== null || Date.now() > deadline) throw new Error(`PostgreSQL did not start on port ${port}`)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }

  const stop = async () => {
    if (!child || child.exitCode !== null) return
    // SIGINT is PostgreSQL's fast shutdown: open sessions are ended and what is committed is written.
    child.kill("SIGINT")
    await exited
  }

  await start()
  return {
    url,
    start,
    stop,
    pause() {
      const postmaster = child?.pid
      if (!postmaster) return
      // The postmaster first, so that it forks no backend after its children are counted.
      signal(postmaster, "SIGSTOP")
      paused = [...childrenOf(postmaster), postmaster]
      for (const pid of paused) signal(pid, "SIGSTOP")
    },
    resume() {
      for (const pid of paused) signal(pid, "SIGCONT")
      paused = []
    },
    async destroy() {
      for (const pid of paused) signal(pid, "SIGCONT")
      paused = []
      await stop()
      fs.rmSync(folder, { recursive: true, force: true })
    }
  }
}
