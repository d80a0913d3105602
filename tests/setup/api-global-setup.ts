import type { TestProject } from "vitest/node"

import { ensureServerBuild } from "../../scripts/server-build.mjs"
import { createPostgresTemplate, embeddedTemplateService, POSTGRES_PROJECT } from "./database-template"
import { FIREBASE_EMULATOR_SERVICE, startFirebaseAuthEmulator } from "./firebase-emulator"
import { releaseAll, acquireRunService } from "./run-services"

/**
 * An API project's once-per-run services (tests/setup/run-services.ts), shared with the run's other projects: one
 * Auth emulator for both API projects, one embedded template for the API and browser files. The first project set
 * up starts every service the run's projects need, side by side, and each then awaits its own.
 */
export default async function setup(project: TestProject) {
  const onPostgres = project.name === POSTGRES_PROJECT
  // The API files on the embedded database and the browser files' servers start from the embedded template.
  const runsEmbedded = project.vitest.projects.some((other) => other.name === "api" || other.name === "e2e")
  const bundle = acquireRunService("server bundle", async () => ({ value: await ensureServerBuild(), stop: async () => {} }))
  const emulator = acquireRunService(FIREBASE_EMULATOR_SERVICE, async () => {
    const { host, stop } = await startFirebaseAuthEmulator()
    return { value: host, stop }
  })
  const embedded = runsEmbedded ? embeddedTemplateService() : null
  const postgres = onPostgres ? acquireRunService("PostgreSQL template", createPostgresTemplate) : null
  const uses = [bundle, emulator, embedded, postgres].filter((use) => use !== null)
  const teardown = () => releaseAll(uses)
  try {
    await bundle.value
    project.provide("firebaseAuthEmulatorHost", await emulator.value)
    // Nothing on PostgreSQL opens an embedded database from the template: every test database there is a copy of
    // the PostgreSQL template.
    const files = onPostgres ? null : await embedded!.value
    project.provide("databaseTemplatePath", files?.dumpPath ?? "")
    project.provide("databaseSeedDir", files?.seedDir ?? "")
    project.provide("postgresTemplate", postgres ? await postgres.value : null)
  } catch (error) {
    await teardown()
    throw error
  }
  return teardown
}
