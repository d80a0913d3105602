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

// The unit files share their worker's process and page (vitest.config.ts): what one file stubs, spies on, fakes or
// leaves in the page must not reach the next, as it could not when each file had a process of its own. A file
// replaces a global through vi.spyOn or vi.stubGlobal, never by assignment, so that this can undo it.
afterAll(() => {
  // What a file wrote into the page itself (React Testing Library's cleanup only unmounts what it rendered).
  if (typeof document !== "undefined") document.body.replaceChildren()
  vi.useRealTimers()
  vi.unstubAllGlobals()
  vi.unstubAllEnvs()
  vi.restoreAllMocks()
})
