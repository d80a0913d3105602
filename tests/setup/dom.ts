import { afterAll, afterEach, vi } from "vitest"

// Shared by DOM tests and by the node-environment tests of the same project.
if (typeof window !== "undefined") {
  const { cleanup, configure } = await import("@testing-library/react")
  // findBy*/waitFor give up after 1 s by default: too short for a lazily loaded page on a busy 2-core machine.
  // A state that never comes still fails, only later.
  configure({ asyncUtilTimeout: 10_000 })
  afterEach(() => {
    cleanup()
    window.localStorage.clear()
    window.sessionStorage.clear()
  })
}

// The unit files share their worker's process (vitest.config.ts): what one file stubs, spies on or fakes must not
// reach the next, as it could not when each file had a process of its own.
afterAll(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
  vi.unstubAllEnvs()
  vi.restoreAllMocks()
})
