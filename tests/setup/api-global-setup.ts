import type { TestProject } from "vitest/node"

import { ensureServerBuild } from "../../scripts/server-build.mjs"
import { createPostgresTemplate, EMBEDDED_TEMPLATE_SERVICE, embeddedTemplateService, POSTGRES_PROJECT, POSTGRES_TEMPLATE_SERVICE } from "./database-template"
import { FIREBASE_EMULATOR_SERVICE, startFirebaseAuthEmulator } from "./firebase-emulator"
import { acquireRunService, releaseAll, runServicesDir } from "./run-services"

declare module "vitest" {
  export interface ProvidedContext {
    /** The run's readiness markers (tests/setup/run-services.ts) and the services this project's files wait for. */
    runServices: { dir: string; names: string[] }
  }
}

/**
 * An API project's once-per-run services (tests/setup/run-services.ts), shared with the run's other projects: one
 * Auth emulator for both API projects, one embedded template for the API and browser files. The first project set
 * up starts every service the run's projects need, side by side; none is awaited here: each file waits for its
 * project's before it starts (tests/setup/api-file.ts), by when the unit files have given them their time.
 */
export default async function setup(project: TestProject) {
  const onPostgres = project.name === POSTGRES_PROJECT
  // The API files on the embedded database and the browser files' servers start from the embedded template.
  const runsEmbedded = project.vitest.projects.some((other) => other.name === "api" || other.name === "e2e")
  const emulator = acquireRunService(FIREBASE_EMULATOR_SERVICE, async () => {
    const { host, ready, stop } = await startFirebaseAuthEmulator()
    return { value: host, ready, stop }
  })
  const embedded = runsEmbedded ? embeddedTemplateService() : null
  const postgres = onPostgres ? acquireRunService(POSTGRES_TEMPLATE_SERVICE, createPostgresTemplate) : null
  const uses = [emulator, embedded, postgres].filter((use) => use !== null)
  const teardown = () => releaseAll(uses)
  try {
    // The bundle spawned servers run: a stat of its inputs when `npm run build` made it, a build of 0.3 s otherwise.
    await ensureServerBuild()
    project.provide("firebaseAuthEmulatorHost", await emulator.value)
    // Nothing on PostgreSQL opens an embedded database from the template: every test database there is a copy of
    // the PostgreSQL template.
    const files = onPostgres ? null : await embedded!.value
    project.provide("databaseTemplatePath", files?.dumpPath ?? "")
    project.provide("databaseSeedDir", files?.seedDir ?? "")
    project.provide("postgresTemplate", postgres ? await postgres.value : null)
    const names = [FIREBASE_EMULATOR_SERVICE, onPostgres ? POSTGRES_TEMPLATE_SERVICE : EMBEDDED_TEMPLATE_SERVICE]
    project.provide("runServices", { dir: runServicesDir(), names })
  } catch (error) {
    await teardown()
    throw error
  }
  return teardown
}
