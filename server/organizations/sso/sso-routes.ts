/** /api/organizations/current/sso: an organisation's OpenID Connect provider (sso-service.ts); each route parses, authorises and calls. */
import type { FastifyInstance } from "fastify"

import { ok } from "~core/api-answer"
import { ssoSettingsRequestSchema, ssoSettingsSchema, ssoTestResultSchema } from "~core/organization-sso"

import { requireUser } from "../../auth/authenticate"
import { docsTagged, parseRequest } from "../../openapi/route-docs"
import { ssoService } from "./sso-service"

const orgDoc = docsTagged("Organizations")
const NOT_MEMBER = { 404: "NOT_FOUND: you are not a member of an organisation (or, to remove, it has no single sign-on)." }

export async function ssoRoutes(app: FastifyInstance) {
  const sso = ssoService(app)

  const readDoc = orgDoc({ summary: "Your organisation's single sign-on", description: "The owner and admins; the client secret is never answered.", data: { 200: ssoSettingsSchema }, errors: { ...NOT_MEMBER, 403: "FORBIDDEN: members who do not manage the organisation." } })
  app.get("/api/organizations/current/sso", { preHandler: requireUser, schema: readDoc }, async (request) => ok(await sso.read(request.auth!)))

  const saveDoc = orgDoc({
    summary: "Set up single sign-on with your identity provider (OpenID Connect)",
    description:
      "The owner. The issuer must be https on a public address; its discovery document is read with these settings before they are saved. The client secret is stored sealed and never answered. Audited.",
    body: ssoSettingsRequestSchema,
    data: { 200: ssoSettingsSchema },
    errors: {
      ...NOT_MEMBER,
      400: "SSO_ISSUER_NOT_ALLOWED: not https, or not on a public address; SSO_DISCOVERY_FAILED: the provider's configuration could not be read (the message says why).",
      403: "FORBIDDEN: only the owner."
    }
  })
  app.put("/api/organizations/current/sso", { preHandler: requireUser, schema: saveDoc }, async (request) => {
    const input = parseRequest(request, "body", ssoSettingsRequestSchema)
    return ok(await sso.save(request.auth!, input, request.ip))
  })

  const testDoc = orgDoc({
    summary: "Test settings for your identity provider without saving them",
    description: "The owner. Reads the provider's discovery document with these settings, as saving does, and answers what it says.",
    body: ssoSettingsRequestSchema,
    data: { 200: ssoTestResultSchema },
    errors: { ...NOT_MEMBER, 400: "SSO_ISSUER_NOT_ALLOWED or SSO_DISCOVERY_FAILED, as when saving.", 403: "FORBIDDEN: only the owner." }
  })
  app.post("/api/organizations/current/sso/test", { preHandler: requireUser, schema: testDoc }, async (request) => {
    const input = parseRequest(request, "body", ssoSettingsRequestSchema)
    return ok(await sso.test(request.auth!, input))
  })

  const removeDoc = orgDoc({ summary: "Turn single sign-on off", description: "The owner. Audited.", data: { 200: ssoSettingsSchema }, errors: { ...NOT_MEMBER, 403: "FORBIDDEN: only the owner." } })
  app.delete("/api/organizations/current/sso", { preHandler: requireUser, schema: removeDoc }, async (request) => ok(await sso.remove(request.auth!, request.ip)))
}
