/** /api/organizations/current/domains: an organisation's e-mail domains (domain-service.ts); each route parses, authorises and calls. */
import type { FastifyInstance } from "fastify"
import * as z from "zod"

import { ok } from "~core/api-answer"
import { addDomainRequestSchema, domainParamsSchema, organizationDomainListSchema, organizationDomainSchema } from "~core/organization-domains"

import { requireUser } from "../../auth/authenticate"
import { docsTagged, parseRequest } from "../../openapi/route-docs"
import { domainService } from "./domain-service"

const domainDoc = docsTagged("Organizations")
const NOT_MEMBER = { 404: "NOT_FOUND: you are not a member of an organisation, or it has not added this domain." }
const OWNER_ONLY = { ...NOT_MEMBER, 403: "FORBIDDEN: only the organisation's owner can change its domains." }

export async function domainRoutes(app: FastifyInstance) {
  const domains = domainService(app)

  const listDoc = domainDoc({ summary: "Your organisation's e-mail domains", description: "The owner and admins.", data: { 200: organizationDomainListSchema }, errors: { ...NOT_MEMBER, 403: "FORBIDDEN: members who do not manage the organisation." } })
  app.get("/api/organizations/current/domains", { preHandler: requireUser, schema: listDoc }, async (request) => ok(await domains.list(request.auth!)))

  const addDoc = domainDoc({
    summary: "Claim an e-mail domain",
    description: "The owner. Answers the TXT record to add at the domain's DNS provider; verify then looks it up. Audited.",
    body: addDomainRequestSchema,
    data: { 201: organizationDomainSchema },
    errors: { ...OWNER_ONLY, 409: "DOMAIN_ALREADY_ADDED; TOO_MANY_DOMAINS: 10 at most." }
  })
  app.post("/api/organizations/current/domains", { preHandler: requireUser, schema: addDoc }, async (request, reply) => {
    const { domain } = parseRequest(request, "body", addDomainRequestSchema)
    return reply.code(201).send(ok(await domains.add(request.auth!, domain, request.ip)))
  })

  const verifyDoc = domainDoc({
    summary: "Verify a claimed domain by its TXT record",
    description: "The owner. Looks up _image-query-ai.<domain> (DNS_SERVERS, or the system's servers); a domain is verified by one organisation at most. Audited.",
    params: domainParamsSchema,
    data: { 200: organizationDomainSchema },
    errors: {
      ...OWNER_ONLY,
      400: "DOMAIN_NOT_VERIFIED: no TXT record, or none with the claim's value (the message says which).",
      409: "DOMAIN_TAKEN: another organisation verified it.",
      503: "DNS_UNAVAILABLE: the DNS servers did not answer."
    }
  })
  app.post("/api/organizations/current/domains/:domain/verify", { preHandler: requireUser, schema: verifyDoc }, async (request) => {
    const { domain } = parseRequest(request, "params", domainParamsSchema)
    return ok(await domains.verify(request.auth!, domain, request.ip))
  })

  const removeDoc = domainDoc({ summary: "Remove a domain", description: "The owner. Audited.", params: domainParamsSchema, data: { 200: z.object({ removed: z.literal(true) }) }, errors: OWNER_ONLY })
  app.delete("/api/organizations/current/domains/:domain", { preHandler: requireUser, schema: removeDoc }, async (request) => {
    const { domain } = parseRequest(request, "params", domainParamsSchema)
    return ok(await domains.remove(request.auth!, domain, request.ip))
  })
}
