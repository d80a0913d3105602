import fs from "node:fs/promises"
import os from "node:os"
import path from "node:path"

import type { TestProject } from "vitest/node"

import { createEmbeddedTemplate } from "../../server/db/database"

declare module "vitest" {
  export interface ProvidedContext {
    databaseTemplatePath: string
  }
}

/**
 * Initialising an embedded database takes seconds; it is done once per run and every test file
 * opens a copy of the migrated result.
 */
export default async function setup(project: TestProject) {
  const folder = await fs.mkdtemp(path.join(os.tmpdir(), "iqa-db-template-"))
  const file = path.join(folder, "template.tar")
  const template = await createEmbeddedTemplate()
  await fs.writeFile(file, Buffer.from(await template.arrayBuffer()))
  project.provide("databaseTemplatePath", file)
  return async () => {
    await fs.rm(folder, { recursive: true, force: true })
  }
}
