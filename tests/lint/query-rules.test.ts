// @vitest-environment node
// The query rule of eslint.config.js (docs/development.md, Layout): no module of server/ runs a query unless it is a
// *-store.ts or lies in server/db/ (tests and test kits aside). The files are linted by path only, nothing is written.
import { ESLint } from "eslint"
import { describe, expect, it } from "vitest"

const eslint = new ESLint({ cwd: process.cwd() })
const QUERIES_IN_STORE = "Queries live in the feature's store, a *-store.ts (docs/development.md, Layout)"

async function restrictedSyntaxErrors(filePath: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath })
  return result!.messages.filter((message) => message.ruleId === "no-restricted-syntax").map((message) => message.message)
}

const QUERYING_SOURCE = `import { sql } from "kysely"
import type { Kysely } from "kysely"
export async function planted(db: Kysely<Record<string, { id: string }>>): Promise<unknown> {
  await db.selectFrom("users").selectAll().execute()
  await db.insertInto("users").values({ id: "a" }).execute()
  await db.updateTable("users").set({ id: "b" }).execute()
  await db.deleteFrom("users").execute()
  return sql\`select 1\`
}
`

describe("queries, kept in the feature's store by the linter", () => {
  it.each(["server/planted/routes.ts", "server/planted/planted-service.ts", "server/planted/users.ts", "server/planted-helpers.ts", "server/planted/deep/sessions.ts"])(
    "refuses every query in %s",
    async (filePath) => {
      expect(await restrictedSyntaxErrors(filePath, QUERYING_SOURCE)).toEqual(Array(5).fill(QUERIES_IN_STORE))
    }
  )

  it.each(["server/planted/planted-store.ts", "server/db/planted.ts", "server/planted/planted.test.ts", "server/test-kit/planted.ts"])("allows them in %s", async (filePath) => {
    expect(await restrictedSyntaxErrors(filePath, QUERYING_SOURCE)).toEqual([])
  })

  it("still holds the zod rule in a routes.ts", async () => {
    const errors = await restrictedSyntaxErrors("server/planted/routes.ts", 'import { z } from "zod"\nexport const planted = z.string()\n')
    expect(errors).toHaveLength(1)
    expect(errors[0]).toContain("import * as z")
  })
})
