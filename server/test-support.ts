import fs from "node:fs/promises"
import os from "node:os"
import path from "node:path"

import type { FastifyInstance } from "fastify"
import { inject } from "vitest"

import { buildApp, type AppDependencies } from "./app"
import { loadConfig, type AppConfig } from "./config"
import { openDatabase, type Database } from "./db/database"

/** A fresh, migrated embedded database copied from the run's template. */
export async function openTestDatabase(): Promise<Database> {
  const dump = await fs.readFile(inject("databaseTemplatePath"))
  return openDatabase({ embeddedTemplate: new Blob([dump]) })
}

export async function makeTempDir(prefix = "iqa-test-"): Promise<string> {
  return fs.mkdtemp(path.join(os.tmpdir(), prefix))
}

/** Config as the server would read it, with test defaults and the given variables. */
export function testConfig(env: Record<string, string> = {}, dataDir?: string): AppConfig {
  return loadConfig({ NODE_ENV: "test", DATA_DIR: dataDir ?? os.tmpdir(), ...env })
}

export interface TestApp {
  app: FastifyInstance
  database: Database
  dataDir: string
  close(): Promise<void>
}

/** The app as npm start builds it, on a private data folder and a fresh database. */
export async function startTestApp(
  env: Record<string, string> = {},
  dependencies: AppDependencies = {}
): Promise<TestApp> {
  const dataDir = await makeTempDir()
  const database = dependencies.database ?? (await openTestDatabase())
  const app = await buildApp(testConfig(env, dataDir), { ...dependencies, database })
  await app.ready()
  return {
    app,
    database,
    dataDir,
    async close() {
      await app.close()
      await database.close()
      await fs.rm(dataDir, { recursive: true, force: true })
    }
  }
}
