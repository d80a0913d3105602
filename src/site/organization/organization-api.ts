/**
 * The site's calls to /api/organizations (the signed-in account's organisation, its members, invitations and brand)
 * through the app's one API client, their answers checked at run time, and the queries the pages read them through.
 * Every change refreshes the organisation and the profile (the dashboard's "Member of …" comes from the profile).
 */
import { useQuery, useQueryClient } from "@tanstack/react-query"
import { useCallback } from "react"
import * as z from "zod"

import { ApiRequestError } from "~api/http-client"
import { getApiClient } from "~site-session/site-api"
import { useSession } from "~site-session/session-store"
import {
  invitationSchema,
  membershipSchema,
  organizationActivitySchema,
  organizationSchema,
  type AssignableRole,
  type Invitation,
  type Membership,
  type Organization,
  type OrganizationActivity,
  type OrganizationUpdate
} from "~core/organizations"

import { parseAnswer } from "../parse-answer"

export const ORGANIZATION_PATH = "/api/organizations/current"

/** Under ORGANIZATION_QUERY_KEY, keyed by the account's e-mail so another account never sees this one's organisation. */
export const ORGANIZATION_QUERY_KEY = ["organization"] as const
export const organizationKeys = {
  current: (email: string) => [...ORGANIZATION_QUERY_KEY, "current", email] as const,
  invitations: (email: string) => [...ORGANIZATION_QUERY_KEY, "invitations", email] as const,
  activity: (email: string) => [...ORGANIZATION_QUERY_KEY, "activity", email] as const
}
/** The dashboard's profile query, which carries the account's membership. */
export const PROFILE_QUERY_KEY = ["profile"] as const


const organizationAnswer = async (call: Promise<unknown>): Promise<Organization> => parseAnswer(organizationSchema, await call)
const memberPath = (userId: string) => `${ORGANIZATION_PATH}/members/${encodeURIComponent(userId)}`

/** The caller's organisation, or null when they belong to none (the server answers 404). */
export async function fetchOrganization(): Promise<Organization | null> {
  try {
    return await organizationAnswer(getApiClient().get(ORGANIZATION_PATH))
  } catch (failure) {
    if (failure instanceof ApiRequestError && failure.status === 404) return null
    throw failure
  }
}

export const createOrganization = (name: string) => organizationAnswer(getApiClient().post("/api/organizations", { name }))
export const updateOrganization = (update: OrganizationUpdate) =>
  organizationAnswer(getApiClient().patch(ORGANIZATION_PATH, update))

/**
 * PUT multipart with the one field `logo`. The API client has no multipart PUT of its own (only POST's upload and
 * postForm), but its writes pass their options through to the request: the form goes as the body, no JSON beside it.
 */
export function uploadLogo(file: File): Promise<Organization> {
  const form = new FormData()
  form.append("logo", file, file.name)
  return organizationAnswer(getApiClient().putForm(`${ORGANIZATION_PATH}/logo`, form))
}

export const fetchInvitations = async (): Promise<Invitation[]> =>
  parseAnswer(z.array(invitationSchema), await getApiClient().get(`${ORGANIZATION_PATH}/invitations`))
export const inviteMember = async (invitation: { email: string; role: AssignableRole }): Promise<Invitation> =>
  parseAnswer(invitationSchema, await getApiClient().post(`${ORGANIZATION_PATH}/invitations`, invitation))
export const revokeInvitation = (id: string) => getApiClient().delete(`${ORGANIZATION_PATH}/invitations/${encodeURIComponent(id)}`)

export const acceptInvitation = (code: string) => organizationAnswer(getApiClient().post("/api/organizations/invitations/accept", { code }))
export const changeMemberRole = (userId: string, role: AssignableRole) => getApiClient().patch(memberPath(userId), { role })
/** Removes a member; a member's own id is leaving. */
export const removeMember = (userId: string) => getApiClient().delete(memberPath(userId))
export const transferOwnership = (userId: string) => getApiClient().post(`${ORGANIZATION_PATH}/transfer`, { userId })
export const deleteOrganization = () => getApiClient().delete(ORGANIZATION_PATH)

/** The signed-in account's e-mail, or "" while signed out (the queries then wait). */
export const useAccountEmail = () => useSession((state) => (state.status === "loggedIn" ? (state.user?.email ?? "") : ""))

/** The signed-in account's organisation (null: none); idle while signed out. */
export function useOrganization({ enabled = true }: { enabled?: boolean } = {}) {
  const email = useAccountEmail()
  return useQuery({ queryKey: organizationKeys.current(email), queryFn: fetchOrganization, enabled: enabled && Boolean(email), staleTime: 0 })
}

/** The organisation's pending invitations; asked only for an owner or admin (`enabled`). */
export function useInvitations(enabled: boolean) {
  const email = useAccountEmail()
  return useQuery({ queryKey: organizationKeys.invitations(email), queryFn: fetchInvitations, enabled: enabled && Boolean(email) })
}

const fetchActivity = async (): Promise<OrganizationActivity[]> => parseAnswer(z.array(organizationActivitySchema), await getApiClient().get(`${ORGANIZATION_PATH}/activity`))

/** The organisation's latest membership changes, newest first (refreshed with the organisation after each change). */
export function useActivity() {
  const email = useAccountEmail()
  return useQuery({ queryKey: organizationKeys.activity(email), queryFn: fetchActivity, enabled: Boolean(email) })
}

/**
 * After a change: keeps the organisation the server answered (null once it is left or deleted) and refreshes the
 * organisation's queries, the dashboard's profile and the stored user (whose membership and brand the extension
 * follows through the session sync). Resolves once they are asked again.
 */
export function useOrganizationChanged(): (organization?: Organization | null) => Promise<void> {
  const queryClient = useQueryClient()
  const email = useAccountEmail()
  return useCallback(
    async (organization?: Organization | null) => {
      if (organization !== undefined && email) queryClient.setQueryData(organizationKeys.current(email), organization)
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ORGANIZATION_QUERY_KEY }),
        queryClient.invalidateQueries({ queryKey: PROFILE_QUERY_KEY }),
        useSession.getState().refreshProfile()
      ])
    },
    [queryClient, email]
  )
}

/** The membership a profile's user carries; a profile from before organisations (no field) or a malformed one is none. */
export function membershipOf(user: unknown): Membership | null {
  const organization = (user as { organization?: unknown } | null | undefined)?.organization
  const parsed = membershipSchema.safeParse(organization)
  return parsed.success ? parsed.data : null
}
