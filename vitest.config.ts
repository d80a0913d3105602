import fs from "node:fs"
import path from "node:path"
import { fileURLToPath } from "node:url"

import react from "@vitejs/plugin-react"
import { defineConfig } from "vitest/config"

import ProjectSequencer from "./tests/setup/sequencer.ts"

const root = path.dirname(fileURLToPath(import.meta.url))
const alias = [{ find: /^~(.*)$/, replacement: `${path.join(root, "src")}/$1` }]

/**
 * The api tests run a second time on PostgreSQL when TEST_DATABASE_URL names a server that answers. Outside CI a
 * missing server skips that run with the reason printed; in CI it is an error, so that the run cannot pass unseen.
 */
async function postgresProjects() {
  const { postgresUnavailableReason, TEST_DATABASE_URL_VARIABLE } = await import("./tests/setup/postgres-databases.ts")
  const reason = await postgresUnavailableReason(process.env[TEST_DATABASE_URL_VARIABLE])
  if (reason && process.env.CI) throw new Error(`The API tests must run on PostgreSQL in CI, but ${reason}.`)
  if (reason) {
    // The config is read by each of vitest's processes: say it once.
    if (!process.env.IQA_POSTGRES_SKIP_SAID) console.warn(`api-postgres skipped: ${reason}. The API tests run on the embedded database only.`)
    process.env.IQA_POSTGRES_SKIP_SAID = "1"
    return []
  }
  return [{ extends: true as const, test: { ...API_TEST, name: "api-postgres", exclude: WITHOUT_DATABASE } }]
}

const API_TEST = {
  include: ["server/**/*.test.ts"],
  environment: "node" as const,
  globalSetup: ["tests/setup/api-global-setup.ts"],
  setupFiles: ["tests/setup/api-file.ts"],
  // A worker runs file after file of its project in one module graph instead of a new process importing the server's
  // modules again for each (about 2.4 s of CPU a file, half the CPU of the small files). The files mock no module and
  // stub no global; each opens its own app and database, and what a file leaves in the process (spawned servers,
  // variables of the environment) is undone after it (tests/setup/api-file.ts).
  isolate: false,
  // Three files at once: the API files wait on spawned servers, e-mail claims running out and timers much of their
  // time, and with two the machine stood idle a fifth of the API phase.
  maxWorkers: 3,
  // vitest runs projects of different maxWorkers in groups of their own: after the unit files, before the browser's.
  sequence: { groupOrder: 1 },
  testTimeout: 20_000,
  hookTimeout: 30_000
}

/**
 * API test files run once, in the api project: those that open no database (or only an embedded one of their own),
 * and those whose database use is incidental to what they test.
 */
const WITHOUT_DATABASE = [
  "server/config.test.ts",
  "server/auth/mfa/secret-box.test.ts",
  "server/mail/mailer.test.ts",
  "server/mail/email-templates.test.ts",
  "server/feedback/reliability.test.ts",
  "server/vision-model/model-calls.test.ts",
  "server/image-input/image-download.test.ts",
  "server/billing/subscription-rules.test.ts",
  "server/billing/plan.test.ts",
  "server/production-start.test.ts",
  "server/env-file.test.ts",
  // What a start of the bundle loads with nothing configured, or Google sign-in and object storage.
  "server/start-modules.test.ts",
  "server/status/checks.test.ts",
  // Pure functions and constants: no database at all.
  "server/status/version.test.ts",
  "server/auth/mailbox.test.ts",
  // The vision pool's line on its own: no database at all.
  "server/local-vision/fair-scheduler.test.ts",
  // tesseract.js on images made for measuring, beside bare tesseract.js: no database at all.
  "server/local-vision/ocr-completeness.test.ts",
  // The analysis threads' shares between accounts, on the real models (their keys are the queries above).
  "server/public-api/local-vision-shares.test.ts",
  // The engines' answers on real images (tens of seconds of model runs); its keys and counts are the same queries
  // server/api-keys and the route tables already run on PostgreSQL.
  "server/public-api/local-vision-api.test.ts",
  // Runs a PostgreSQL and a Redis of its own, which it shuts down and freezes.
  "server/faults.test.ts",
  // A client generated from the reference, type-checked and run against the real models: its key is the same
  // queries server/api-keys and the route tables already run on PostgreSQL.
  "server/openapi/generated-client.test.ts"
]

const postgresRuns = await postgresProjects()

const UNIT_INCLUDE = ["src/**/*.test.{ts,tsx}", "scripts/**/*.test.ts", "tests/lint/**/*.test.ts", "tests/spec/**/*.test.ts"]

/**
 * The unit files that replace modules (vi.mock, vi.doMock): a module registry shared with other files would hand
 * them, or the files after them, the wrong module. They run in a project of their own, a fresh process each; the
 * others share their worker's (see unit's isolate). Found by reading the files, so that a new mock cannot leak.
 */
function unitFilesMockingModules(): string[] {
  const files: string[] = []
  for (const folder of ["src", "scripts", "tests/lint", "tests/spec"]) {
    for (const name of fs.readdirSync(path.join(root, folder), { recursive: true, encoding: "utf8" })) {
      if (!/\.test\.tsx?$/.test(name)) continue
      const file = path.join(folder, name)
      if (/\bvi\.(mock|doMock)\(/.test(fs.readFileSync(path.join(root, file), "utf8"))) files.push(file.split(path.sep).join("/"))
    }
  }
  return files
}

const UNIT_MOCKING_MODULES = unitFilesMockingModules()

const UNIT_TEST = {
  environment: "happy-dom" as const,
  // The extension's modules as npm test builds them (package.json's build:local): trusting the local site by name.
  env: { PLASMO_PUBLIC_SITE_ORIGINS: "http://localhost:8787" },
  setupFiles: ["tests/setup/dom.ts"],
  // The page tests click through whole screens: 1.3 s for the longest alone, 5.4 s on a 2-core machine busy with
  // builds and browsers, over vitest's 5 s default.
  testTimeout: 15_000
}

export default defineConfig({
  plugins: [react()],
  resolve: { alias },
  test: {
    // vitest's default on 2 CPUs is one worker, which ran every file one after the other. The files wait on
    // databases, servers, browsers and timers much of their time: two at once.
    // The API projects raise theirs to 3 (API_TEST).
    maxWorkers: 2,
    // The projects one after another in the queue, longest first within each, so that a worker without isolation
    // goes on with its project. The browser files after all others (sequence.groupOrder): beside the API files they
    // took a quarter longer, their browsers burning CPU as they waited.
    sequence: { sequencer: ProjectSequencer },
    projects: [
      {
        extends: true,
        test: {
          ...UNIT_TEST,
          name: "unit",
          include: UNIT_INCLUDE,
          exclude: UNIT_MOCKING_MODULES,
          // One process per worker for file after file (tests/setup/dom.ts resets what a file may leave behind):
          // a process and a DOM environment for each of 133 files took 140 s of CPU; now 92 s, unit-mocks included.
          isolate: false
        }
      },
      { extends: true, test: { ...UNIT_TEST, name: "unit-mocks", include: UNIT_MOCKING_MODULES } },
      { extends: true, test: { ...API_TEST, name: "api" } },
      ...postgresRuns,
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["tests/e2e/**/*.test.ts"],
          environment: "node",
          globalSetup: ["tests/setup/e2e-global-setup.ts"],
          setupFiles: ["tests/setup/e2e-file.ts"],
          // Two browser files at once: each keeps about one core busy at most (a browser file waits on pages, timers
          // and its server much of its time), and every file has its own server, browser profile, ports and data.
          maxWorkers: 2,
          sequence: { groupOrder: 2 },
          // A worker goes on from file to file in one process, as the API files do: the files mock no module and
          // stub no global, and each closes the browser and servers it started (afterAll).
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 120_000
        }
      }
    ]
  }
})
