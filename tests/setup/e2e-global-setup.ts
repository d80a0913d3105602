import fs from "node:fs/promises"
import os from "node:os"
import path from "node:path"

import { openDatabase } from "../../server/db/database"
import { E2E_DATABASE_SEED_VARIABLE } from "../e2e/server"

/**
 * A migrated, empty embedded database folder, made once per run the way the server makes one in a fresh DATA_DIR:
 * every end-to-end server starts on a copy of it (tests/e2e/server.ts) instead of creating and migrating its own,
 * which took half of its start (about 3.5 s of CPU of 7).
 */
export default async function setup() {
  const folder = await fs.mkdtemp(path.join(os.tmpdir(), "iqa-e2e-db-seed-"))
  const seed = path.join(folder, "db")
  const database = await openDatabase({ embeddedDir: seed })
  await database.close()
  // The test files' processes are started with this process's environment.
  process.env[E2E_DATABASE_SEED_VARIABLE] = seed
  return async () => {
    delete process.env[E2E_DATABASE_SEED_VARIABLE]
    await fs.rm(folder, { recursive: true, force: true })
  }
}
