/**
 * The site's calls to /api/webhooks (a Pro person's endpoints, or their organisation's for its owner and admins), their
 * answers checked at run time. Keyed by the account's e-mail, so another sign-in in this tab never reads them.
 */
import { useQuery, useQueryClient } from "@tanstack/react-query"
import { useCallback } from "react"
import * as z from "zod"

import { createdWebhookSchema, webhookDeliverySchema, webhookEndpointSchema, type CreateWebhookRequest, type CreatedWebhook, type WebhookDelivery, type WebhookEndpoint } from "~core/webhooks"
import { getApiClient } from "~site-session/site-client"
import { useSession } from "~site-session/session-store"
import { parseAnswer } from "~site-session/parse-answer"

const WEBHOOKS_PATH = "/api/webhooks"
const webhookPath = (id: string) => `${WEBHOOKS_PATH}/${encodeURIComponent(id)}`

export const webhookKeys = {
  list: (email: string) => ["webhooks", email] as const,
  deliveries: (email: string, id: string) => ["webhooks", email, id, "deliveries"] as const
}

export const fetchWebhooks = async (): Promise<WebhookEndpoint[]> => parseAnswer(z.array(webhookEndpointSchema), await getApiClient().get(WEBHOOKS_PATH))
export const createWebhook = async (request: CreateWebhookRequest): Promise<CreatedWebhook> => parseAnswer(createdWebhookSchema, await getApiClient().post(WEBHOOKS_PATH, request))
export const removeWebhook = async (id: string) => parseAnswer(z.object({ deleted: z.literal(true) }), await getApiClient().delete(webhookPath(id)))
export const sendTestEvent = async (id: string) => parseAnswer(z.object({ deliveryId: z.string() }), await getApiClient().post(`${webhookPath(id)}/test`))
export const fetchDeliveries = async (id: string): Promise<WebhookDelivery[]> => parseAnswer(z.array(webhookDeliverySchema), await getApiClient().get(`${webhookPath(id)}/deliveries`))

const useEmail = () => useSession((state) => state.user?.email ?? "")

export function useWebhooks() {
  const email = useEmail()
  return useQuery({ queryKey: webhookKeys.list(email), queryFn: fetchWebhooks, enabled: Boolean(email) })
}

/** An endpoint's deliveries, asked again every few seconds while shown: a test or a retry changes them. */
export function useDeliveries(id: string) {
  const email = useEmail()
  return useQuery({ queryKey: webhookKeys.deliveries(email, id), queryFn: () => fetchDeliveries(id), enabled: Boolean(email), refetchInterval: 5_000 })
}

export function useWebhooksChanged(): (id?: string) => Promise<void> {
  const queryClient = useQueryClient()
  const email = useEmail()
  return useCallback(
    async (id?: string) => {
      await queryClient.invalidateQueries({ queryKey: id ? webhookKeys.deliveries(email, id) : webhookKeys.list(email) })
    },
    [queryClient, email]
  )
}
