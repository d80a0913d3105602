/** The site's calls to /api/keys, the owner's personal API keys. */
import type { ApiKeySummary, CreateApiKeyRequest, CreatedApiKey } from "~core/api-keys"
import { getApiClient } from "~site-session/site-api"

export const API_KEYS_QUERY_KEY = ["api-keys"] as const

export const listApiKeys = () => getApiClient().get<ApiKeySummary[]>("/api/keys")
export const createApiKey = (input: CreateApiKeyRequest) => getApiClient().post<CreatedApiKey>("/api/keys", input)
export const revokeApiKey = (id: string) => getApiClient().delete<{ revoked: true }>(`/api/keys/${encodeURIComponent(id)}`)
