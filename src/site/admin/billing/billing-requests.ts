/** The billing page's call: GET /api/admin/billing (one page of the subscriptions), checked against its schema at run time. */
import { keepPreviousData, useQuery } from "@tanstack/react-query"

import { getApiClient } from "~site-session/site-client"
import { adminBillingSchema, type AdminBilling } from "~core/admin/admin-analytics"
import { parseAnswer } from "~site-session/parse-answer"

export const adminBillingKeys = {
  page: (page: number) => ["admin", "billing", page] as const
}

export async function fetchAdminBilling(page: number, signal?: AbortSignal): Promise<AdminBilling> {
  return parseAnswer(adminBillingSchema, await getApiClient().get("/api/admin/billing", { params: { page }, signal }))
}

/** The figures and a page of the subscriptions; the page shown stays while the next one loads. */
export function useAdminBilling(page: number) {
  return useQuery({ queryKey: adminBillingKeys.page(page), queryFn: ({ signal }) => fetchAdminBilling(page, signal), staleTime: 0, placeholderData: keepPreviousData })
}
