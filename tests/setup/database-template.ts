import fs from "node:fs/promises"
import os from "node:os"
import path from "node:path"

import { createEmbeddedTemplate, openDatabase } from "../../server/db/database"
import { acquireRunService, type StartedService } from "./run-services"
import { createDatabase, databaseUrl, dropDatabase, freshDatabaseName, TEST_DATABASE_URL_VARIABLE } from "./postgres-databases"

declare module "vitest" {
  export interface ProvidedContext {
    databaseTemplatePath: string
    /**
     * In the api project, a migrated embedded database folder made from the template: a spawned server's fresh
     * DATA_DIR gets a copy of it (server/test-kit/spawned-server.ts) instead of creating and migrating its own.
     */
    databaseSeedDir: string
    /** Set in the api-postgres project: the server, and the migrated database each test file copies. */
    postgresTemplate: { adminUrl: string; template: string } | null
  }
}

/** The project whose test files run on PostgreSQL: the same files as api. */
export const POSTGRES_PROJECT = "api-postgres"

/** The migrated embedded database: the dump every API test file opens a copy of, and the folder it makes. */
export interface EmbeddedTemplate {
  dumpPath: string
  /** A migrated embedded database folder made from the dump: what a spawned server's fresh DATA_DIR starts from. */
  seedDir: string
}

/**
 * Initialising a database takes seconds; it is done once per run (tests/setup/run-services.ts) and every test file
 * opens a copy of the migrated result: an embedded dump, and in the api-postgres project a template database on
 * the PostgreSQL server. Each answers at once where the result will be, and makes it in the background.
 */
export async function createEmbeddedTemplateFiles(): Promise<StartedService<EmbeddedTemplate>> {
  const folder = await fs.mkdtemp(path.join(os.tmpdir(), "iqa-db-template-"))
  const value = { dumpPath: path.join(folder, "template.tar"), seedDir: path.join(folder, "db") }
  const ready = (async () => {
    const template = await createEmbeddedTemplate()
    await fs.writeFile(value.dumpPath, Buffer.from(await template.arrayBuffer()))
    await (await openDatabase({ embeddedDir: value.seedDir, embeddedTemplate: template })).close()
  })()
  return { value, ready, stop: () => fs.rm(folder, { recursive: true, force: true }) }
}

/** The migrated template database on the PostgreSQL server of TEST_DATABASE_URL, dropped at the end of the run. */
export async function createPostgresTemplate(): Promise<StartedService<{ adminUrl: string; template: string }>> {
  const adminUrl = process.env[TEST_DATABASE_URL_VARIABLE]
  if (!adminUrl) throw new Error(`The ${POSTGRES_PROJECT} project needs ${TEST_DATABASE_URL_VARIABLE}`)
  const value = { adminUrl, template: freshDatabaseName("iqa_template") }
  let created = false
  const ready = (async () => {
    await createDatabase(adminUrl, value.template)
    created = true
    await (await openDatabase({ databaseUrl: databaseUrl(adminUrl, value.template) })).close()
  })()
  return { value, ready, stop: async () => (created ? dropDatabase(adminUrl, value.template) : undefined) }
}

export const EMBEDDED_TEMPLATE_SERVICE = "embedded database template"
export const POSTGRES_TEMPLATE_SERVICE = "PostgreSQL template"

/** The run's embedded template (tests/setup/run-services.ts): the API files open its dump, every server its folder. */
export const embeddedTemplateService = () => acquireRunService(EMBEDDED_TEMPLATE_SERVICE, createEmbeddedTemplateFiles)
