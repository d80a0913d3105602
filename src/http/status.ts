import type { StatusReport } from "~core/api-answer"

import { ApiRequestError, type ApiClient } from "./http-client"

const isReport = (value: unknown): value is StatusReport => typeof (value as StatusReport | null)?.version === "string"

/**
 * GET /api/status. A 503 carries the same report beside its error (a critical service is down), so it is a report
 * too; null when the service cannot be reached in time or answers something else.
 */
export async function fetchServiceStatus(client: ApiClient, signal?: AbortSignal): Promise<StatusReport | null> {
  try {
    const report = await client.get<unknown>("/api/status", { signal, auth: "none" })
    return isReport(report) ? report : null
  } catch (error) {
    if (error instanceof ApiRequestError && isReport(error.data)) return error.data
    return null
  }
}
