/** The site's calls to /api/keys, the owner's personal API keys and the calls they made. */
import { useQuery } from "@tanstack/react-query"

import { API_KEY_USAGE_DEFAULT_DAYS, type ApiKeySummary, type ApiKeyUsage, type CreateApiKeyRequest, type CreatedApiKey } from "~core/api-keys"
import { getApiClient } from "~site-session/site-api"

/** Under API_KEYS_QUERY_KEY too: a change to the keys refreshes the chart of their calls with the list. */
export const API_KEYS_QUERY_KEY = ["api-keys"] as const

export const listApiKeys = () => getApiClient().get<ApiKeySummary[]>("/api/keys")
export const createApiKey = (input: CreateApiKeyRequest) => getApiClient().post<CreatedApiKey>("/api/keys", input)
export const revokeApiKey = (id: string) => getApiClient().delete<{ revoked: true }>(`/api/keys/${encodeURIComponent(id)}`)
export const fetchApiKeyUsage = (days: number) => getApiClient().get<ApiKeyUsage>(`/api/keys/usage?days=${days}`)

/** The account's API calls per UTC day and endpoint over the last `days` days, today last. */
export function useApiKeyUsage(days = API_KEY_USAGE_DEFAULT_DAYS) {
  return useQuery({ queryKey: [...API_KEYS_QUERY_KEY, "usage", days], queryFn: () => fetchApiKeyUsage(days) })
}
