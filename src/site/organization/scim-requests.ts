/**
 * The site's calls to /api/organizations/current/scim-tokens (the bearer tokens the organisation's identity provider
 * provisions people with at /scim/v2), their answers checked at run time.
 */
import { useQuery, useQueryClient } from "@tanstack/react-query"
import { useCallback } from "react"
import * as z from "zod"

import { createdScimTokenSchema, scimTokenListSchema, type ScimToken } from "~core/scim"
import { getApiClient } from "~site-session/site-client"
import { useAccountEmail } from "~site/shared/account-queries"
import { ORGANIZATION_PATH, organizationKeys } from "~site/shared/organization-query"
import { parseAnswer } from "~site-session/parse-answer"

const TOKENS_PATH = `${ORGANIZATION_PATH}/scim-tokens`

export const scimKeys = {
  tokens: (email: string) => [...organizationKeys.all, "scim-tokens", email] as const
}

export const fetchScimTokens = async (): Promise<ScimToken[]> => parseAnswer(scimTokenListSchema, await getApiClient().get(TOKENS_PATH)).tokens
/** A new token, answered with its secret this once. */
export const createScimToken = async () => parseAnswer(createdScimTokenSchema, await getApiClient().post(TOKENS_PATH))
export const revokeScimToken = async (id: string) => parseAnswer(z.object({ revoked: z.literal(true) }), await getApiClient().delete(`${TOKENS_PATH}/${encodeURIComponent(id)}`))

export function useScimTokens() {
  const email = useAccountEmail()
  return useQuery({ queryKey: scimKeys.tokens(email), queryFn: fetchScimTokens, enabled: Boolean(email) })
}

/** After a change: the list and the activity (where each change is written) asked again. */
export function useScimTokensChanged(): () => Promise<void> {
  const queryClient = useQueryClient()
  const email = useAccountEmail()
  return useCallback(async () => {
    await Promise.all([queryClient.invalidateQueries({ queryKey: scimKeys.tokens(email) }), queryClient.invalidateQueries({ queryKey: organizationKeys.activity(email) })])
  }, [queryClient, email])
}
