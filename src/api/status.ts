import type { ApiResponse, StatusReport } from "~core/api"
import { API_REQUEST_TIMEOUT_MS } from "~core/limits"

/** Reads GET /api/status; resolves to null when the service cannot be reached in time or answers garbage. */
export async function fetchServiceStatus(origin: string, signal?: AbortSignal): Promise<StatusReport | null> {
  const timeout = AbortSignal.timeout(API_REQUEST_TIMEOUT_MS)
  try {
    const response = await fetch(`${origin}/api/status`, {
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      headers: { accept: "application/json" }
    })
    const body = (await response.json()) as Partial<ApiResponse<StatusReport>> & { data?: StatusReport }
    return body.data && typeof body.data.version === "string" ? body.data : null
  } catch {
    return null
  }
}
