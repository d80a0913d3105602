/**
 * The services a test run starts once and its projects share: the embedded database template, the PostgreSQL
 * template and the Firebase Auth emulator.
 *
 * vitest sets its projects up one after the other, before any file runs, and loads each project's global setup
 * files in a module graph of its own. Each project starting and awaiting its own took 21 s before the first unit
 * file: two emulators (one per API project, 8 s each), the embedded database migrated twice (API and browser
 * projects), each in turn. Now:
 * - kept on globalThis, a service is started by the first project that names it and found by the next; each project
 *   names what any project of the run will need, so they all start side by side;
 * - a set-up waits for none of them. A service answers at once what the files need to know of it (an address, a
 *   path, a database's name) and starts in the background, beside the unit files, which need none; when it is ready
 *   (or has failed) the main process writes a marker file, which a file of a project that uses it waits for before
 *   its first line (serviceReady, from the project's setup file);
 * - a service stops when the last project that named it tears down.
 */
import fs from "node:fs"
import os from "node:os"
import path from "node:path"

export interface StartedService<T> {
  /** What the test files are told of the service, known before it is ready. */
  value: T
  /** Settles when the service can be used, or has failed to start. */
  ready: Promise<void>
  /** Stops it once it has settled; the last user's teardown calls it. */
  stop: () => Promise<void>
}

interface Entry {
  started: Promise<StartedService<unknown>>
  users: number
}

interface Shared {
  entries: Map<string, Entry>
  markers: string | null
}

const SHARED = Symbol.for("image-query-ai.test-run-services")
const shared: Shared = ((globalThis as Record<symbol, unknown>)[SHARED] ??= { entries: new Map(), markers: null }) as Shared

/** The run's folder of readiness markers, made on first use: what a project provides its files (runServicesDir). */
export function runServicesDir(): string {
  shared.markers ??= fs.mkdtempSync(path.join(os.tmpdir(), "iqa-run-services-"))
  return shared.markers
}

const markerFile = (dir: string, name: string, outcome: "ready" | "failed") => path.join(dir, `${name.replace(/[^\w-]+/g, "-")}.${outcome}`)

export interface RunService<T> {
  /** What the files are told of the service; rejects when it could not even begin. */
  value: Promise<T>
  /** The project's teardown: the last one stops the service. */
  release: () => Promise<void>
}

/** The run's `name` service, started with `start` unless a project of this run has started it already. */
export function acquireRunService<T>(name: string, start: () => Promise<StartedService<T>>): RunService<T> {
  let entry = shared.entries.get(name)
  if (!entry) {
    const dir = runServicesDir()
    const started = start()
    const settled = started.then((service) => service.ready)
    settled.then(
      () => fs.writeFileSync(markerFile(dir, name, "ready"), ""),
      (error: unknown) => fs.writeFileSync(markerFile(dir, name, "failed"), error instanceof Error ? (error.stack ?? error.message) : String(error))
    )
    entry = { started, users: 0 }
    shared.entries.set(name, entry)
  }
  entry.users += 1
  const used = entry
  let released = false
  return {
    value: used.started.then((service) => service.value as T),
    release: async () => {
      if (released) return
      released = true
      used.users -= 1
      if (used.users > 0) return
      shared.entries.delete(name)
      const service = await used.started.catch(() => null)
      await service?.ready.catch(() => undefined)
      await service?.stop()
      if (shared.entries.size === 0 && shared.markers) {
        fs.rmSync(shared.markers, { recursive: true, force: true })
        shared.markers = null
      }
    }
  }
}

/** The run's `name` service if a project has started it; null otherwise (the caller does without, or its own). */
export function acquireStartedRunService<T>(name: string): RunService<T> | null {
  return shared.entries.has(name) ? acquireRunService<T>(name, () => Promise.reject(new Error(`${name} was not started`))) : null
}

/** Releases every service of `uses`, whatever happens to one of them. */
export async function releaseAll(uses: RunService<unknown>[]): Promise<void> {
  await Promise.allSettled(uses.map((use) => use.release()))
}

/**
 * In a test file's process: waits until the main process has marked each of `names` ready (a project's runServices), and throws the start's
 * error when one failed. The services start while the unit files run, so a file rarely waits.
 */
export async function serviceReady({ dir, names }: { dir: string; names: string[] }, timeoutMs = 180_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (const name of names) {
    for (;;) {
      if (fs.existsSync(markerFile(dir, name, "ready"))) break
      const failed = markerFile(dir, name, "failed")
      if (fs.existsSync(failed)) throw new Error(`The test run's ${name} did not start:\n${fs.readFileSync(failed, "utf8")}`)
      if (Date.now() > deadline) throw new Error(`The test run's ${name} was not ready within ${timeoutMs / 1000} s`)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }
}
