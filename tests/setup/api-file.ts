import { afterAll, inject } from "vitest"

import { killSpawnedServers } from "../../server/test-kit/spawned-server"
import { serviceReady } from "./run-services"

// The run's services this project uses are ready (tests/setup/run-services.ts): they start while the unit files run.
await serviceReady(inject("runServices"))

// Every API test file, before its own code. With isolate off, files share their worker's process: what one leaves
// behind must not reach the next, as it could not when each file had a process of its own.

// A server process a failed test left running ends with the file.
afterAll(killSpawnedServers)

// The environment as the file found it: the app sets variables a library reads from it (firebase-admin's
// FIREBASE_AUTH_EMULATOR_HOST), and a later file's spawned server would inherit them.
const environment = { ...process.env }
afterAll(() => {
  for (const name of Object.keys(process.env)) if (!(name in environment)) delete process.env[name]
  Object.assign(process.env, environment)
})
