import { QueryClient } from "@tanstack/react-query"

import { QUERY_CACHE_TIME_MS, QUERY_RETRY, QUERY_STALE_TIME_MS } from "~core/limits"

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
