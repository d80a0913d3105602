/**
 * The site's calls to /api/organizations (the signed-in account's organisation, its members, invitations and brand)
 * through the app's one API client, their answers checked at run time, and the queries the pages read them through
 * (the organisation itself, which the pricing page reads too, is ~site/shared/organization-query.ts). Every change
 * refreshes the organisation and the profile (the dashboard's "Member of …" comes from the profile).
 */
import { useQuery, useQueryClient } from "@tanstack/react-query"
import { useCallback } from "react"
import * as z from "zod"

import { confirmationSchema } from "~core/api-answer"
import {
  invitationSchema,
  organizationActivitySchema,
  type AssignableRole,
  type Invitation,
  type Organization,
  type OrganizationActivity,
  type OrganizationUpdate
} from "~core/organizations"
import { parseAnswer } from "~site-session/parse-answer"
import { useSession } from "~site-session/session-store"
import { getApiClient } from "~site-session/site-client"
import { accountKeys, useAccountEmail } from "~site/shared/account-queries"
import { ORGANIZATION_PATH, organizationAnswer, organizationKeys } from "~site/shared/organization-query"

const memberPath = (userId: string) => `${ORGANIZATION_PATH}/members/${encodeURIComponent(userId)}`

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
export const revokeInvitation = async (id: string) =>
  parseAnswer(confirmationSchema("revoked"), await getApiClient().delete(`${ORGANIZATION_PATH}/invitations/${encodeURIComponent(id)}`))

export const acceptInvitation = (code: string) => organizationAnswer(getApiClient().post("/api/organizations/invitations/accept", { code }))
export const changeMemberRole = (userId: string, role: AssignableRole) => organizationAnswer(getApiClient().patch(memberPath(userId), { role }))
/** Removes a member; a member's own id is leaving. */
export const removeMember = async (userId: string) => parseAnswer(confirmationSchema("removed"), await getApiClient().delete(memberPath(userId)))
export const transferOwnership = (userId: string) => organizationAnswer(getApiClient().post(`${ORGANIZATION_PATH}/transfer`, { userId }))
export const deleteOrganization = async () => parseAnswer(confirmationSchema("deleted"), await getApiClient().delete(ORGANIZATION_PATH))

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
        queryClient.invalidateQueries({ queryKey: organizationKeys.all }),
        queryClient.invalidateQueries({ queryKey: accountKeys.profile }),
        useSession.getState().refreshProfile()
      ])
    },
    [queryClient, email]
  )
}
