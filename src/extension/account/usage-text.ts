import type { VqaUsageReport } from "~core/analysis/vqa"

/**
 * "3 of 10 AI requests used this month, resets 1 December", or "Unlimited AI requests" for a plan without a limit; a
 * member of an organisation reads its pool's figures, named: "Acme's pool: 12 of 100 AI requests used this month".
 */
export function usageText(usage: Pick<VqaUsageReport, "used" | "limit" | "resetsAt" | "pool">): string {
  const pool = usage.pool ? `${usage.pool.name}'s pool: ` : ""
  if (usage.limit === null) return `${pool}Unlimited AI requests`
  const resets = new Date(usage.resetsAt)
  const day = Number.isNaN(resets.getTime()) ? "" : resets.toLocaleDateString("en-GB", { day: "numeric", month: "long", timeZone: "UTC" })
  return `${pool}${usage.used} of ${usage.limit} AI requests used this month${day ? `, resets ${day}` : ""}`
}
