/** The site's calls to /api/keys, the owner's personal API keys and the calls they made, their answers checked at run time. */
import { useQuery } from "@tanstack/react-query"
import * as z from "zod"

import { confirmationSchema } from "~core/api-answer"
import { API_KEY_USAGE_DEFAULT_DAYS, apiKeySummarySchema, apiKeyUsageSchema, createdApiKeySchema, type CreateApiKeyRequest } from "~core/api-keys"
import { parseAnswer } from "~site-session/parse-answer"
import { getApiClient } from "~site-session/site-client"

const ROOT = ["api-keys"] as const

/** The usage sits under `all` with the list: a change to the keys refreshes the chart of their calls too. */
export const apiKeysKeys = {
  all: ROOT,
  list: [...ROOT, "list"] as const,
  usage: (days: number) => [...ROOT, "usage", days] as const
}

export const listApiKeys = async () => parseAnswer(z.array(apiKeySummarySchema), await getApiClient().get("/api/keys"))
export const createApiKey = async (input: CreateApiKeyRequest) => parseAnswer(createdApiKeySchema, await getApiClient().post("/api/keys", input))
export const revokeApiKey = async (id: string) => parseAnswer(confirmationSchema("revoked"), await getApiClient().delete(`/api/keys/${encodeURIComponent(id)}`))
export const fetchApiKeyUsage = async (days: number) => parseAnswer(apiKeyUsageSchema, await getApiClient().get("/api/keys/usage", { params: { days } }))

/** The account's API keys; asked only while the plan has API access (`enabled`). */
export function useApiKeys(enabled: boolean) {
  return useQuery({ queryKey: apiKeysKeys.list, queryFn: listApiKeys, enabled })
}

/** The account's API calls per UTC day and endpoint over the last `days` days, today last. */
export function useApiKeyUsage(days = API_KEY_USAGE_DEFAULT_DAYS) {
  return useQuery({ queryKey: apiKeysKeys.usage(days), queryFn: () => fetchApiKeyUsage(days) })
}
