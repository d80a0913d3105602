/**
 * Service status and the banner rule of the status page. Rather than showing every service as
 * operational, GET /api/status reports a real check for each one, and the status page shows what
 * the server reports.
 */
import * as z from "zod"

export const SERVICE_STATES = ["operational", "degraded", "outage", "maintenance"] as const
export type ServiceState = (typeof SERVICE_STATES)[number]

/** The five services of the status page, in display order. */
export const STATUS_SERVICES = [
  { id: "website", name: "Website" },
  { id: "api", name: "API" },
  { id: "database", name: "Database" },
  { id: "authentication", name: "Authentication" },
  { id: "payments", name: "Payment Processing" }
] as const

export type ServiceId = (typeof STATUS_SERVICES)[number]["id"]

const SERVICE_IDS = STATUS_SERVICES.map((service) => service.id) as [ServiceId, ...ServiceId[]]

export const serviceStatusEntrySchema = z.object({
  id: z.enum(SERVICE_IDS),
  name: z.string(),
  status: z.enum(SERVICE_STATES),
  /** What the check found, in plain words. */
  message: z.string(),
  /** How long the check took, when it did real work. */
  latencyMs: z.number().optional(),
  /** ISO time of the last failed check this server process saw, if any. */
  lastIncident: z.string().optional()
})
export type ServiceStatusEntry = z.infer<typeof serviceStatusEntrySchema>

export type OverallStatus = "operational" | "partial" | "major"

export const OVERALL_STATUS_LABELS: Record<OverallStatus, string> = {
  operational: "All Systems Operational",
  partial: "Partial System Outage",
  major: "Major System Outage"
}

/**
 * The banner: 'Major System Outage' if any service is in outage, 'Partial System Outage' if any is
 * degraded, else 'All Systems Operational'. Maintenance is planned work, not an outage, so it alone
 * leaves the banner operational.
 */
export function overallStatus(states: readonly ServiceState[]): OverallStatus {
  if (states.includes("outage")) return "major"
  if (states.includes("degraded")) return "partial"
  return "operational"
}

export const NO_INCIDENTS_TEXT = "No Recent Incidents"
