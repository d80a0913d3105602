import { QueryClient } from "@tanstack/react-query"

import { QUERY_CACHE_TIME_MS, QUERY_RETRY, QUERY_STALE_TIME_MS } from "~core/limits"

/** The data-fetching defaults of spec section 9. */
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
