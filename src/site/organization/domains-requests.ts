/**
 * The site's calls to /api/organizations/current/domains (the organisation's e-mail domains: claimed by the owner,
 * proved with a DNS TXT record), their answers checked at run time, and the query the card reads them through. The
 * list sits under organizationKeys.all, so a change of the organisation (a transfer of ownership) asks it again.
 */
import { useQuery, useQueryClient } from "@tanstack/react-query"
import { useCallback } from "react"

import { confirmationSchema } from "~core/api-answer"
import { organizationDomainListSchema, organizationDomainSchema, type OrganizationDomain } from "~core/organization-domains"
import { getApiClient } from "~site-session/site-client"
import { useAccountEmail } from "~site/shared/account-queries"
import { ORGANIZATION_PATH, organizationKeys } from "~site/shared/organization-query"
import { parseAnswer } from "~site-session/parse-answer"

const DOMAINS_PATH = `${ORGANIZATION_PATH}/domains`
const domainPath = (domain: string) => `${DOMAINS_PATH}/${encodeURIComponent(domain)}`

/** Keyed by the account's e-mail, as the organisation's other queries. */
export const domainKeys = {
  list: (email: string) => [...organizationKeys.all, "domains", email] as const
}

const domainAnswer = async (call: Promise<unknown>): Promise<OrganizationDomain> => parseAnswer(organizationDomainSchema, await call)

export const fetchDomains = async (): Promise<OrganizationDomain[]> =>
  parseAnswer(organizationDomainListSchema, await getApiClient().get(DOMAINS_PATH)).domains
/** Claims a domain (already in DNS's form, normalDomain's); answers it with the TXT record to add. */
export const addDomain = (domain: string) => domainAnswer(getApiClient().post(DOMAINS_PATH, { domain }))
/** Asks the server to look the TXT record up; fails with its words when the record is missing or wrong. */
export const verifyDomain = (domain: string) => domainAnswer(getApiClient().post(`${domainPath(domain)}/verify`))
export const removeDomain = async (domain: string) => parseAnswer(confirmationSchema("removed"), await getApiClient().delete(domainPath(domain)))

/** The organisation's domains; asked only for an owner or admin (`enabled`), the server refusing the others. */
export function useDomains(enabled: boolean) {
  const email = useAccountEmail()
  return useQuery({ queryKey: domainKeys.list(email), queryFn: fetchDomains, enabled: enabled && Boolean(email) })
}

/**
 * After a change: keeps the domain the server answered in the list at once (`changed`; a removal passes none) and
 * asks the list and the activity (where each change is written) again. Resolves once they are answered.
 */
export function useDomainsChanged(): (changed?: OrganizationDomain) => Promise<void> {
  const queryClient = useQueryClient()
  const email = useAccountEmail()
  return useCallback(
    async (changed?: OrganizationDomain) => {
      if (changed) {
        queryClient.setQueryData<OrganizationDomain[]>(domainKeys.list(email), (domains = []) =>
          domains.some((domain) => domain.domain === changed.domain) ? domains.map((domain) => (domain.domain === changed.domain ? changed : domain)) : [...domains, changed]
        )
      }
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: domainKeys.list(email) }),
        queryClient.invalidateQueries({ queryKey: organizationKeys.activity(email) })
      ])
    },
    [queryClient, email]
  )
}
