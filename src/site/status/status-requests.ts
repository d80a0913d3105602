/** The status page's call, GET /api/status (~http/status parses it: the extension reads it too), and its query. */
import { useQuery } from "@tanstack/react-query"

import { fetchServiceStatus } from "~http/status"
import { getApiClient } from "~site-session/site-client"

const REFRESH_INTERVAL_MS = 60_000

export const statusKeys = {
  services: ["status", "services"] as const
}

/** The service's checks, asked again every minute while the page is open. */
export function useServiceStatus() {
  return useQuery({
    queryKey: statusKeys.services,
    queryFn: ({ signal }) => fetchServiceStatus(getApiClient(), signal),
    refetchInterval: REFRESH_INTERVAL_MS,
    staleTime: 0
  })
}
