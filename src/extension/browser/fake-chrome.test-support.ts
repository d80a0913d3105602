import { afterEach, beforeEach, vi } from "vitest"

/** A minimal chrome.* for unit tests: storage.local / storage.session in memory, onChanged, runtime listeners. */
type Listener = (...args: never[]) => unknown

/** A chrome event: listeners added and removed as Chrome's are, and `fire` to call them as Chrome would. */
export function fakeEvent() {
  const listeners = new Set<Listener>()
  return {
    listeners,
    addListener: (listener: Listener) => void listeners.add(listener),
    removeListener: (listener: Listener) => void listeners.delete(listener),
    hasListener: (listener: Listener) => listeners.has(listener),
    fire: (...args: unknown[]) => listeners.forEach((listener) => (listener as (...a: unknown[]) => unknown)(...args))
  }
}

export function createFakeChrome() {
  const onChanged = fakeEvent()
  const area = (name: string) => {
    const items = new Map<string, unknown>()
    const keysOf = (keys: unknown): string[] =>
      keys === undefined || keys === null ? [...items.keys()] : typeof keys === "string" ? [keys] : Array.isArray(keys) ? (keys as string[]) : Object.keys(keys as object)
    const answer = <T>(value: T, callback?: unknown) => {
      if (typeof callback === "function") (callback as (value: T) => void)(value)
      return Promise.resolve(value)
    }
    const notify = (changes: Record<string, { oldValue?: unknown; newValue?: unknown }>) => {
      for (const listener of onChanged.listeners) (listener as (c: typeof changes, a: string) => void)(changes, name)
    }
    return {
      items,
      get: (keys?: unknown, callback?: unknown) =>
        answer(Object.fromEntries(keysOf(keys).filter((key) => items.has(key)).map((key) => [key, structuredClone(items.get(key))])), callback),
      set: (values: Record<string, unknown>, callback?: unknown) => {
        const changes: Record<string, { oldValue?: unknown; newValue?: unknown }> = {}
        for (const [key, value] of Object.entries(values)) {
          changes[key] = { oldValue: items.get(key), newValue: value }
          items.set(key, structuredClone(value))
        }
        notify(changes)
        return answer(undefined, callback)
      },
      remove: (keys: unknown, callback?: unknown) => {
        const changes: Record<string, { oldValue?: unknown }> = {}
        for (const key of keysOf(keys)) {
          if (!items.has(key)) continue
          changes[key] = { oldValue: items.get(key) }
          items.delete(key)
        }
        if (Object.keys(changes).length) notify(changes)
        return answer(undefined, callback)
      },
      clear: () => Promise.resolve(items.clear())
    }
  }
  return {
    storage: { local: area("local"), session: area("session"), onChanged },
    runtime: {
      id: "ffaglifbbggnijgmaboakodgdepojdjj",
      onMessageExternal: fakeEvent(),
      onMessage: fakeEvent(),
      onConnectExternal: fakeEvent(),
      onConnect: fakeEvent(),
      getURL: (path: string) => `chrome-extension://ffaglifbbggnijgmaboakodgdepojdjj/${path.replace(/^\//, "")}`,
      getManifest: () => ({ manifest_version: 3 })
    },
    commands: { getAll: () => Promise.resolve([] as chrome.commands.Command[]), onCommand: fakeEvent() }
  }
}

export type FakeChrome = ReturnType<typeof createFakeChrome>

/**
 * A fresh fake as the global `chrome` in each test of the file; returns how to reach the current one. React trees
 * are unmounted before it goes, since their clean-ups remove listeners from it.
 */
export function installFakeChromeForEachTest(): () => FakeChrome {
  let fake: FakeChrome | undefined
  beforeEach(() => {
    fake = createFakeChrome()
    vi.stubGlobal("chrome", fake)
  })
  afterEach(async () => {
    if (typeof window !== "undefined") (await import("@testing-library/react")).cleanup()
    vi.unstubAllGlobals()
  })
  return () => fake!
}

/**
 * The fake chrome.* as the extension's opener code meets it: sidePanel.open and storage.session.set record, in
 * `calls`, the order they were called in (the panel must open inside the user's gesture, before anything is awaited);
 * `extra` adds the other APIs a test needs (windows, tabs…). Installed as the global chrome until vi.unstubAllGlobals.
 */
export function installSidePanelChrome(extra: Record<string, unknown> = {}) {
  const fake = createFakeChrome()
  const calls: string[] = []
  const set = fake.storage.session.set
  fake.storage.session.set = (values, callback) => {
    calls.push("storage.session.set")
    return set(values, callback)
  }
  const open = vi.fn((_options: object) => {
    calls.push("sidePanel.open")
    return Promise.resolve()
  })
  vi.stubGlobal("chrome", { ...fake, sidePanel: { open }, ...extra })
  return { fake, calls, open }
}
