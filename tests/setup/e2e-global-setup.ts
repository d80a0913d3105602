import { E2E_DATABASE_SEED_VARIABLE } from "../e2e/server"
import { embeddedTemplateService } from "./database-template"

/**
 * A migrated, empty embedded database folder, made once per run and shared with the API files
 * (tests/setup/run-services.ts): every end-to-end server starts on a copy of it (tests/e2e/server.ts) instead of
 * creating and migrating its own, which took half of its start (about 3.5 s of CPU of 7).
 */
export default async function setup() {
  const embedded = embeddedTemplateService()
  try {
    // The test files' processes are started with this process's environment.
    process.env[E2E_DATABASE_SEED_VARIABLE] = (await embedded.value).seedDir
  } catch (error) {
    await embedded.release()
    throw error
  }
  return async () => {
    delete process.env[E2E_DATABASE_SEED_VARIABLE]
    await embedded.release()
  }
}
