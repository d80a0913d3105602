import type { ApiResponse, StatusReport } from "~core/api"

/** Reads GET /api/status; resolves to null when the service cannot be reached or answers garbage. */
export async function fetchServiceStatus(origin: string, signal?: AbortSignal): Promise<StatusReport | null> {
  try {
    const response = await fetch(`${origin}/api/status`, { signal, headers: { accept: "application/json" } })
    const body = (await response.json()) as Partial<ApiResponse<StatusReport>> & { data?: StatusReport }
    return body.data && typeof body.data.version === "string" ? body.data : null
  } catch {
    return null
  }
}
