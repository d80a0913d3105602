import type { VqaUsage } from "~core/vqa"

/** "3 of 10 AI requests used this month, resets 1 December", or "Unlimited AI requests" for a plan without a limit. */
export function usageText(usage: Pick<VqaUsage, "used" | "limit" | "resetsAt">): string {
  if (usage.limit === null) return "Unlimited AI requests"
  const resets = new Date(usage.resetsAt)
  const day = Number.isNaN(resets.getTime()) ? "" : resets.toLocaleDateString("en-GB", { day: "numeric", month: "long", timeZone: "UTC" })
  return `${usage.used} of ${usage.limit} AI requests used this month${day ? `, resets ${day}` : ""}`
}
