import { spawnSync } from "node:child_process"

import { describe, expect, it } from "vitest"

function start(env: Record<string, string>) {
  return spawnSync(process.execPath, ["scripts/start.mjs"], {
    env: { ...process.env, DATA_DIR: "/nonexistent/never-created", ...env },
    encoding: "utf8",
    timeout: 60_000
  })
}

describe("starting with a bad environment", () => {
  it.each([
    [{ PORT: "abc" }, "PORT must be a whole number from 1 to 65535 (got \"abc\")"],
    [{ PUBLIC_URL: "example.com" }, "PUBLIC_URL must be a URL starting with http:// or https://"],
    [{ DATABASE_URL: "mysql://root:secret@db/app" }, "DATABASE_URL must be a URL starting with postgres://"]
  ])("refuses %o with a clear message and no stack trace", (env, message) => {
    const result = start(env)
    expect(result.status).toBe(1)
    expect(result.stderr).toContain("Invalid configuration:")
    expect(result.stderr).toContain(message)
    expect(result.stderr).not.toMatch(/^\s+at /m)
    expect(result.stderr + result.stdout).not.toContain("secret@")
  })
})
