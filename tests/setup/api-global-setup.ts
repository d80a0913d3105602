import type { TestProject } from "vitest/node"

import { ensureServerBuild } from "../../scripts/server-build.mjs"
import databaseTemplate from "./database-template"
import firebaseEmulator from "./firebase-emulator"

/** The server's bundle that spawned servers run (server/test-kit/spawned-server.ts), built once before any file starts one. */
async function serverBundle() {
  await ensureServerBuild()
  return async () => {}
}

/**
 * The api project's once-per-run services, started side by side: the database template and the Auth emulator each
 * take seconds of CPU, the emulator in its own process, so together they cost little more than the slower one.
 */
export default async function setup(project: TestProject) {
  const started = await Promise.allSettled([databaseTemplate(project), firebaseEmulator(project), serverBundle()])
  const teardowns = started.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []))
  const teardown = async () => {
    await Promise.all(teardowns.map((stop) => stop()))
  }
  const failure = started.find((result) => result.status === "rejected")
  if (failure) {
    await teardown()
    throw failure.reason
  }
  return teardown
}
