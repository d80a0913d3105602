/**
 * The site's calls to /api/organizations/current/sso (the organisation's OpenID Connect provider: saved and tested by
 * the owner, read by admins, the client secret never answered), their answers checked at run time.
 */
import { useQuery, useQueryClient } from "@tanstack/react-query"
import { useCallback } from "react"

import { ssoSettingsSchema, ssoTestResultSchema, type SsoSettings, type SsoSettingsRequest, type SsoTestResult } from "~core/organization-sso"
import { getApiClient } from "~site-session/site-client"
import { useAccountEmail } from "~site/shared/account-queries"
import { ORGANIZATION_PATH, organizationKeys } from "~site/shared/organization-query"
import { parseAnswer } from "~site-session/parse-answer"

const SSO_PATH = `${ORGANIZATION_PATH}/sso`

export const ssoKeys = {
  settings: (email: string) => [...organizationKeys.all, "sso", email] as const
}

const settingsAnswer = async (call: Promise<unknown>): Promise<SsoSettings> => parseAnswer(ssoSettingsSchema, await call)

export const fetchSsoSettings = () => settingsAnswer(getApiClient().get(SSO_PATH))
export const saveSsoSettings = (settings: SsoSettingsRequest) => settingsAnswer(getApiClient().put(SSO_PATH, settings))
export const removeSsoSettings = () => settingsAnswer(getApiClient().delete(SSO_PATH))
export const testSsoSettings = async (settings: SsoSettingsRequest): Promise<SsoTestResult> => parseAnswer(ssoTestResultSchema, await getApiClient().post(`${SSO_PATH}/test`, settings))

export function useSsoSettings() {
  const email = useAccountEmail()
  return useQuery({ queryKey: ssoKeys.settings(email), queryFn: fetchSsoSettings, enabled: Boolean(email) })
}

/** After a change: the settings the server answered at once, then the activity (where each change is written). */
export function useSsoChanged(): (settings: SsoSettings) => Promise<void> {
  const queryClient = useQueryClient()
  const email = useAccountEmail()
  return useCallback(
    async (settings: SsoSettings) => {
      queryClient.setQueryData(ssoKeys.settings(email), settings)
      await queryClient.invalidateQueries({ queryKey: organizationKeys.activity(email) })
    },
    [queryClient, email]
  )
}
