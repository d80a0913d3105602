/** GET /api/admin/billing: subscribers, MRR and the subscriptions (admin-billing-service.ts); admins only. */
import type { FastifyInstance } from "fastify"

import { adminBillingSchema, BILLING_PAGE_SIZE, billingQuerySchema } from "~core/admin/admin-analytics"
import { ok } from "~core/api-answer"

import { requireAdmin } from "../../auth/require-admin"
import { documented, parseRequest } from "../../openapi/route-docs"
import { adminBillingService } from "./admin-billing-service"

const billingDoc = documented({
  tag: "Admin",
  summary: "Subscribers per plan and status, MRR and its change over 30 days, the subscriptions",
  description: `MRR in USD from the plans' prices (yearly / 12; trials and ended subscriptions 0), now and 30 days ago from the recorded history of subscriptions. The list is paged (\`page\`, ${BILLING_PAGE_SIZE} a page): failed payments (past_due, unpaid) first, then by the end of the period or trial; in Stripe mode each Stripe subscription links to its customer in Stripe's dashboard.`,
  querystring: billingQuerySchema,
  data: { 200: adminBillingSchema }
})

export async function adminBillingRoutes(app: FastifyInstance): Promise<void> {
  const billing = adminBillingService(app)
  app.get("/api/admin/billing", { preHandler: requireAdmin, schema: billingDoc }, async (request) =>
    ok(await billing.overview(parseRequest(request, "querystring", billingQuerySchema).page))
  )
}
