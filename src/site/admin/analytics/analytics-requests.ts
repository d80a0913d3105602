/** The analytics page's call: GET /api/admin/analytics, checked against its schema at run time. */
import { useQuery } from "@tanstack/react-query"

import { getApiClient } from "~site-session/site-client"
import { analyticsSchema, type Analytics } from "~core/admin/admin-analytics"
import { parseAnswer } from "~site-session/parse-answer"

export const analyticsKeys = {
  days: (days: number) => ["admin", "analytics", days] as const
}

export async function fetchAnalytics(days: number, signal?: AbortSignal): Promise<Analytics> {
  return parseAnswer(analyticsSchema, await getApiClient().get("/api/admin/analytics", { params: { days }, signal }))
}

/** The recorded events of the last `days` UTC days, today last; read afresh each time the page opens. */
export function useAnalytics(days: number) {
  return useQuery({ queryKey: analyticsKeys.days(days), queryFn: ({ signal }) => fetchAnalytics(days, signal), staleTime: 0 })
}
