import type { TestProject } from "vitest/node"

import { E2E_DATABASE_SEED_VARIABLE } from "../e2e/server"
import { EMBEDDED_TEMPLATE_SERVICE, embeddedTemplateService } from "./database-template"
import { FIREBASE_EMULATOR_SERVICE } from "./firebase-emulator"
import { acquireStartedRunService, releaseAll, runServicesDir } from "./run-services"

/**
 * The browser files' share of the run's services (tests/setup/run-services.ts), awaited by each file before it starts
 * (tests/setup/e2e-file.ts):
 * - a migrated, empty embedded database folder, made once per run with the API files': every end-to-end server
 *   starts on a copy of it (tests/e2e/server.ts) instead of creating and migrating its own, which took half of its
 *   start (about 3.5 s of CPU of 7);
 * - the Firebase Auth emulator, when the API projects of the run have started one (an empty host otherwise: the
 *   Google sign-in file then starts its own, as when the browser files run alone).
 */
export default async function setup(project: TestProject) {
  const embedded = embeddedTemplateService()
  const emulator = acquireStartedRunService<string>(FIREBASE_EMULATOR_SERVICE)
  const uses = [embedded, ...(emulator ? [emulator] : [])]
  try {
    // The test files' processes are started with this process's environment.
    process.env[E2E_DATABASE_SEED_VARIABLE] = (await embedded.value).seedDir
    project.provide("firebaseAuthEmulatorHost", emulator ? await emulator.value : "")
    project.provide("runServices", { dir: runServicesDir(), names: [EMBEDDED_TEMPLATE_SERVICE, ...(emulator ? [FIREBASE_EMULATOR_SERVICE] : [])] })
  } catch (error) {
    await releaseAll(uses)
    throw error
  }
  return async () => {
    delete process.env[E2E_DATABASE_SEED_VARIABLE]
    await releaseAll(uses)
  }
}
