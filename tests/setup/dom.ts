import { afterEach } from "vitest"

// Shared by DOM tests and by the node-environment tests of the same project.
if (typeof window !== "undefined") {
  const { cleanup } = await import("@testing-library/react")
  afterEach(() => {
    cleanup()
    window.localStorage.clear()
  })
}
