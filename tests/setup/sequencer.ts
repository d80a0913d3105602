import { BaseSequencer, type TestSpecification } from "vitest/node"

/**
 * The projects one after another, longest files first within each. vitest.config.ts puts the phases in groups (unit,
 * then API, then browser files, by sequence.groupOrder); this order holds inside a group: unit-mocks before unit, the
 * API files on PostgreSQL before those on the embedded database. With isolate off, a worker goes on to the next file
 * only when that file is of the same project (vitest starts a new worker otherwise): mixed projects would start a new
 * worker almost every time.
 *
 * "Longest" is what vitest measured in this checkout's last run (its results cache), and on a fresh clone, which
 * has none, the seconds below: the files over 10 s in a full run on 2 cores (2026-11-28). Other files keep vitest's
 * order (failed first, then the slowest; without a cache, the largest).
 */
const PROJECT_ORDER = ["unit-mocks", "unit", "api-postgres", "api", "e2e"]

const KNOWN_SECONDS: Record<string, number> = {
  "e2e:tests/e2e/firefox.test.ts": 58,
  "e2e:tests/e2e/dev-command.test.ts": 53,
  "e2e:tests/e2e/find-in-images.test.ts": 42,
  "e2e:tests/e2e/public-site.test.ts": 39,
  "e2e:tests/e2e/accounts.test.ts": 31,
  "e2e:tests/e2e/google-sign-in.test.ts": 28,
  "e2e:tests/e2e/ocr-languages.test.ts": 26,
  "e2e:tests/e2e/admin-panel.test.ts": 23,
  "e2e:tests/e2e/extension-session.test.ts": 22,
  "e2e:tests/e2e/organization-team.test.ts": 21,
  "e2e:tests/e2e/feedback-admin.test.ts": 19,
  "e2e:tests/e2e/package.test.ts": 19,
  "e2e:tests/e2e/billing.test.ts": 17,
  "e2e:tests/e2e/side-panel.test.ts": 16,
  "e2e:tests/e2e/site.test.ts": 15,
  "e2e:tests/e2e/api-keys.test.ts": 14,
  "e2e:tests/e2e/api-docs.test.ts": 13,
  "e2e:tests/e2e/capture-area.test.ts": 12,
  "e2e:tests/e2e/ocr-tessdata-folder.test.ts": 12,
  "e2e:tests/e2e/sent-ledger.test.ts": 11,
  "api-postgres:server/mail/outbox-crash.test.ts": 37,
  "api-postgres:server/route-table.test.ts": 17,
  "api-postgres:server/instances.test.ts": 17,
  "api-postgres:server/mail/outbox.test.ts": 11,
  "api:server/faults.test.ts": 62,
  "api:server/mail/outbox-crash.test.ts": 28,
  "api:server/route-table.test.ts": 28,
  "api:server/feedback/reliability.test.ts": 12,
  "api:server/mail/outbox.test.ts": 11,
  "api:server/crash-safety.test.ts": 10,
  "api:server/public-api/local-vision-api.test.ts": 10,
  "api:server/public-api/local-vision-shares.test.ts": 14
}

export default class ProjectSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    const cache = this.ctx.cache
    const rank = (file: TestSpecification) => {
      const index = PROJECT_ORDER.indexOf(file.project.name)
      return index === -1 ? PROJECT_ORDER.length : index
    }
    const key = (file: TestSpecification) => `${file.project.name}:${file.moduleId.slice(this.ctx.config.root.length + 1)}`
    const cachedAnywhere = sorted.some((file) => cache.getFileTestResults(key(file)) !== undefined)
    const known = (file: TestSpecification) => (cachedAnywhere ? 0 : (KNOWN_SECONDS[key(file)] ?? 0))
    // Array.prototype.sort is stable: vitest's order holds among files of a project the table does not rank.
    return [...sorted].sort((a, b) => rank(a) - rank(b) || known(b) - known(a))
  }
}
