/** axe-core run inside a page of the end-to-end browser: the serious and critical violations only. */
import fs from "node:fs"
import { createRequire } from "node:module"

import type { Page } from "puppeteer-core"

const require = createRequire(import.meta.url)
const AXE_SOURCE = fs.readFileSync(require.resolve("axe-core/axe.min.js"), "utf8")

export interface AxeViolation {
  id: string
  impact: string | null
  help: string
  nodes: { target: unknown }[]
}

/** Violations of impact serious or critical on `page`, outside the `exclude` selectors. */
export async function seriousAxeViolations(page: Page, exclude: string[] = []): Promise<AxeViolation[]> {
  // Evaluated over the DevTools protocol, so the page's script-src policy does not block it.
  await page.evaluate(AXE_SOURCE)
  const violations = await page.evaluate(async (excluded: string[]) => {
    const axe = (window as unknown as { axe: { run(context: object, options: object): Promise<{ violations: AxeViolation[] }> } }).axe
    const result = await axe.run({ include: [document], exclude: excluded }, { resultTypes: ["violations"] })
    return result.violations.map(({ id, impact, help, nodes }) => ({ id, impact, help, nodes: nodes.map((node) => ({ target: node.target })) }))
  }, exclude)
  return violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical")
}
