/**
 * The services a test run starts once and its projects share: the embedded database template, the PostgreSQL
 * template, the Firebase Auth emulator and the server's bundle.
 *
 * vitest sets its projects up one after the other, before any file runs, and loads each project's global setup
 * files in a module graph of its own. Each project starting its own took 21 s before the first unit file: two
 * emulators (one per API project, 8 s each), the embedded database migrated twice (API and browser projects), each
 * awaited in turn. Kept on globalThis, a service is started by the first project that names it and found by the
 * next; each project names at its set-up what any project of the run will need, so they all start side by side.
 * A service stops when the last project that named it tears down.
 */

interface Started<T> {
  value: T
  stop: () => Promise<void>
}

interface Entry {
  started: Promise<Started<unknown>>
  users: number
}

const REGISTRY = Symbol.for("image-query-ai.test-run-services")
const registry: Map<string, Entry> = ((globalThis as Record<symbol, unknown>)[REGISTRY] ??= new Map<string, Entry>()) as Map<string, Entry>

export interface RunService<T> {
  /** The service once started; rejects with its start's error. */
  value: Promise<T>
  /** The project's teardown: the last one stops the service. */
  release: () => Promise<void>
}

/** The run's `name` service, started with `start` unless a project of this run has started it already. */
export function acquireRunService<T>(name: string, start: () => Promise<Started<T>>): RunService<T> {
  let entry = registry.get(name)
  if (!entry) {
    entry = { started: start(), users: 0 }
    // A project may start a service for a later one and not await it itself: its failure is that project's to report.
    entry.started.catch(() => undefined)
    registry.set(name, entry)
  }
  entry.users += 1
  const used = entry
  let released = false
  return {
    value: used.started.then((started) => started.value as T),
    release: async () => {
      if (released) return
      released = true
      used.users -= 1
      if (used.users > 0) return
      registry.delete(name)
      const started = await used.started.catch(() => null)
      await started?.stop()
    }
  }
}

/** The run's `name` service if a project has started it; null otherwise (the caller does without, or its own). */
export function acquireStartedRunService<T>(name: string): RunService<T> | null {
  return registry.has(name) ? acquireRunService<T>(name, () => Promise.reject(new Error(`${name} was not started`))) : null
}

/** Releases every service of `uses`, whatever happens to one of them. */
export async function releaseAll(uses: RunService<unknown>[]): Promise<void> {
  await Promise.allSettled(uses.map((use) => use.release()))
}
