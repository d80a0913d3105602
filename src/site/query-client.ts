import { QueryClient } from "@tanstack/react-query"

import { MINUTE_MS } from "~core/time"

export const QUERY_RETRY = 1

export const QUERY_STALE_TIME_MS = 5 * MINUTE_MS

export const QUERY_CACHE_TIME_MS = 10 * MINUTE_MS

/** One retry; no refetch on focus or mount, but on reconnect; fresh for 5 minutes, kept for 10. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: QUERY_RETRY,
        refetchOnWindowFocus: false,
        refetchOnMount: false,
        refetchOnReconnect: true,
        staleTime: QUERY_STALE_TIME_MS,
        gcTime: QUERY_CACHE_TIME_MS
      }
    }
  })
}
