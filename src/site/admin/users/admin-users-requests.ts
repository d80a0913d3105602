/**
 * The admin's calls for accounts (/api/admin/users and the request limits), their answers checked at run time, and the
 * queries the users pages read them through. Every change refreshes the list and the account's page.
 */
import { useQuery, useQueryClient } from "@tanstack/react-query"
import { useCallback } from "react"

import { getApiClient } from "~site-session/site-client"
import {
  adminUserDetailSchema,
  adminUserListSchema,
  sessionsEndedSchema,
  verificationResentSchema,
  type AdminUserDetail,
  type AdminUserList,
  type AdminUserUpdate,
  type AdminUserSort
} from "~core/admin/admin-users"
import { requestLimitAnswerSchema } from "~core/admin/admin-overview"
import { adminOrganizationSchema } from "~core/organizations"
import type { PlanId } from "~core/billing/plans"
import type { Role } from "~core/user"
import { parseAnswer } from "~site-session/parse-answer"

/** The list's search and filters as the page keeps them in its address; absent ones are "any". */
export interface UserFilters {
  query: string
  plan: PlanId | ""
  role: Role | ""
  verified: "true" | "false" | ""
  disabled: "true" | "false" | ""
  sort: AdminUserSort
  page: number
}

const USERS_ROOT = ["admin", "users"] as const
const ORGANIZATIONS_ROOT = ["admin", "organizations"] as const

/** Every change refreshes both roots: an account's page shows its organisation, and an organisation its accounts' limits. */
export const adminUsersKeys = {
  users: USERS_ROOT,
  list: (filters: UserFilters) => [...USERS_ROOT, "list", filterParams(filters)] as const,
  detail: (id: string) => [...USERS_ROOT, "detail", id] as const,
  organizations: ORGANIZATIONS_ROOT,
  organization: (id: string | null) => [...ORGANIZATIONS_ROOT, id] as const
}
const userPath = (id: string) => `/api/admin/users/${encodeURIComponent(id)}`

/** The filters as query parameters: only those set, so the server's defaults apply to the rest. */
export function filterParams(filters: UserFilters): Record<string, string> {
  const params: Record<string, string> = {}
  if (filters.query.trim()) params.query = filters.query.trim()
  for (const key of ["plan", "role", "verified", "disabled"] as const) if (filters[key]) params[key] = filters[key]
  if (filters.sort !== "created") params.sort = filters.sort
  if (filters.page > 1) params.page = String(filters.page)
  return params
}

export const fetchUsers = async (filters: UserFilters): Promise<AdminUserList> =>
  parseAnswer(adminUserListSchema, await getApiClient().get("/api/admin/users", { params: filterParams(filters) }))
export const fetchUser = async (id: string): Promise<AdminUserDetail> => parseAnswer(adminUserDetailSchema, await getApiClient().get(userPath(id)))
export const updateUser = async (id: string, update: AdminUserUpdate): Promise<AdminUserDetail> =>
  parseAnswer(adminUserDetailSchema, await getApiClient().patch(userPath(id), update))
export const resendVerification = async (id: string) => parseAnswer(verificationResentSchema, await getApiClient().post(`${userPath(id)}/resend-verification`))
export const endSessions = async (id: string) => parseAnswer(sessionsEndedSchema, await getApiClient().post(`${userPath(id)}/end-sessions`))
export const setUserLimit = async (id: string, limit: number | null) =>
  parseAnswer(requestLimitAnswerSchema, await getApiClient().put(`${userPath(id)}/request-limit`, { limit }))
export const fetchOrganization = async (id: string) => parseAnswer(adminOrganizationSchema, await getApiClient().get(`/api/admin/organizations/${encodeURIComponent(id)}`))
export const setOrganizationLimit = async (id: string, limit: number | null) =>
  parseAnswer(adminOrganizationSchema, await getApiClient().put(`/api/admin/organizations/${encodeURIComponent(id)}/request-limit`, { limit }))

export function useAdminUsers(filters: UserFilters) {
  return useQuery({ queryKey: adminUsersKeys.list(filters), queryFn: () => fetchUsers(filters), placeholderData: (previous) => previous })
}

export function useAdminUser(id: string) {
  return useQuery({ queryKey: adminUsersKeys.detail(id), queryFn: () => fetchUser(id) })
}

export function useAdminOrganization(id: string | null) {
  return useQuery({ queryKey: adminUsersKeys.organization(id), queryFn: () => fetchOrganization(id!), enabled: id !== null })
}

/** After a change: keeps the account's page the server answered, and asks the lists and the page again. */
export function useUsersChanged(id: string): (detail?: AdminUserDetail) => Promise<void> {
  const queryClient = useQueryClient()
  return useCallback(
    async (detail?: AdminUserDetail) => {
      if (detail) queryClient.setQueryData(adminUsersKeys.detail(id), detail)
      await Promise.all([queryClient.invalidateQueries({ queryKey: adminUsersKeys.users }), queryClient.invalidateQueries({ queryKey: adminUsersKeys.organizations })])
    },
    [queryClient, id]
  )
}
