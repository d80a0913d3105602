/**
 * The app under test: a fresh, migrated database (embedded, or PostgreSQL in the api-postgres project), a data folder,
 * the configuration as tests set it, and buildApp with the test-only options (the vision model's short time-outs).
 */
import fs from "node:fs/promises"
import os from "node:os"
import path from "node:path"

import type { FastifyInstance } from "fastify"
import { inject } from "vitest"

import type { Clock } from "~core/time"

import type { VisionModelOptions } from "../vision-model/vision-model-service"
import { buildApp, type AppDependencies } from "../app"
import { loadConfig, type AppConfig } from "../config"
import { openDatabase, type Database } from "../db/database"
import { leaseEmbeddedDatabase } from "./embedded-pool"
import { createDatabase, databaseUrl, dropDatabase, freshDatabaseName } from "../../tests/setup/postgres-databases"

/**
 * A fresh, migrated database copied from the run's template: embedded in the api project (one of its worker's pool,
 * emptied back to the template: ./embedded-pool.ts), a database of its own on the PostgreSQL server in the
 * api-postgres project (dropped when closed).
 */
export async function openTestDatabase(): Promise<Database> {
  const copy = await copyPostgresTemplate()
  if (!copy) return leaseEmbeddedDatabase(inject("databaseTemplatePath"))
  const database = await openDatabase({ databaseUrl: copy.url })
  let dropped: Promise<void> | null = null
  return {
    ...database,
    close: () =>
      (dropped ??= (async () => {
        await database.close()
        await copy.drop()
      })())
  }
}

/**
 * In the api-postgres project, a migrated database of its own on the test server, for processes to share through
 * DATABASE_URL; null in the embedded project.
 */
export async function copyPostgresTemplate(): Promise<{ url: string; drop(): Promise<void> } | null> {
  const postgres = inject("postgresTemplate")
  if (!postgres) return null
  const name = freshDatabaseName("iqa_test")
  await createDatabase(postgres.adminUrl, name, postgres.template)
  return { url: databaseUrl(postgres.adminUrl, name), drop: () => dropDatabase(postgres.adminUrl, name) }
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

export { readOutbox, type OutboxMessage } from "../../tests/outbox"

/** The app as buildApp makes it, with the vision model's options only tests set: short time-outs, loopback image URLs. */
export async function startVisionModelApp(
  env: Record<string, string>,
  options: VisionModelOptions,
  dependencies: { clock: Clock; database?: Database }
): Promise<{ app: FastifyInstance; database: Database; close(): Promise<void> }> {
  const subject = await startTestApp(env, { clock: dependencies.clock, database: dependencies.database, visionModel: options })
  return {
    app: subject.app,
    database: subject.database,
    async close() {
      if (!dependencies.database) return subject.close()
      // A database handed in belongs to the caller: close only the app and its data folder.
      await subject.app.close()
      await fs.rm(subject.dataDir, { recursive: true, force: true })
    }
  }
}
