/**
 * The signed-in account's organisation and the keys of the organisation's queries: read by the organisation's pages
 * (their other calls are organization/organization-requests.ts) and the pricing page, whose Enterprise card leads to it.
 */
import { useQuery } from "@tanstack/react-query"

import { ApiRequestError } from "~http/http-client"
import { organizationSchema, type Organization } from "~core/organizations"
import { parseAnswer } from "~site-session/parse-answer"
import { getApiClient } from "~site-session/site-client"

import { useAccountEmail } from "./account-queries"

export const ORGANIZATION_PATH = "/api/organizations/current"

const ROOT = ["organization"] as const

/** Keyed by the account's e-mail, so another account never sees this one's organisation; every one under `all`. */
export const organizationKeys = {
  all: ROOT,
  current: (email: string) => [...ROOT, "current", email] as const,
  invitations: (email: string) => [...ROOT, "invitations", email] as const,
  activity: (email: string) => [...ROOT, "activity", email] as const
}

export const organizationAnswer = async (call: Promise<unknown>): Promise<Organization> => parseAnswer(organizationSchema, await call)

/** The caller's organisation, or null when they belong to none (the server answers 404). */
export async function fetchOrganization(): Promise<Organization | null> {
  try {
    return await organizationAnswer(getApiClient().get(ORGANIZATION_PATH))
  } catch (failure) {
    if (failure instanceof ApiRequestError && failure.status === 404) return null
    throw failure
  }
}

/** The signed-in account's organisation (null: none); idle while signed out. */
export function useOrganization({ enabled = true }: { enabled?: boolean } = {}) {
  const email = useAccountEmail()
  return useQuery({ queryKey: organizationKeys.current(email), queryFn: fetchOrganization, enabled: enabled && Boolean(email), staleTime: 0 })
}
