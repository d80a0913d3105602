/** /api/organizations: teams for Enterprise (organization-service.ts); each route parses, authorises and calls. */
import multipart from "@fastify/multipart"
import type { FastifyInstance } from "fastify"
import * as z from "zod"

import { confirmationSchema, ok } from "~core/api-answer"
import {
  acceptInvitationSchema,
  changeRoleSchema,
  createOrganizationSchema,
  invitationParamsSchema,
  invitationSchema,
  inviteMemberSchema,
  memberParamsSchema,
  organizationActivitySchema,
  organizationSchema,
  transferOwnershipSchema,
  updateOrganizationSchema
} from "~core/organizations"

import { requireUser } from "../auth/authenticate"
import { ApiError, notFound, validationFailed } from "../http/errors"
import { docsTagged, parseRequest } from "../openapi/route-docs"
import { logoStorage, logoTooLarge, MAX_LOGO_BYTES, storeLogo } from "./logo"
import { organizationService } from "./organization-service"

const orgDoc = docsTagged("Organizations")
const ORGANIZATION = { 200: organizationSchema }
const NOT_MEMBER = { 404: "NOT_FOUND: you are not a member of an organisation." }
const MANAGERS_ONLY = { ...NOT_MEMBER, 403: "FORBIDDEN: only the organisation's owner and admins can do this." }
const OWNER_ONLY = { ...NOT_MEMBER, 403: "FORBIDDEN: only the organisation's owner can do this." }

const createDoc = orgDoc({
  summary: "Create your organisation",
  description: "For an Enterprise subscriber, who becomes its owner; the subscription funds its members' pool.",
  body: createOrganizationSchema,
  data: { 201: organizationSchema },
  errors: {
    403: "PLAN_REQUIRED: organisations come with the Enterprise plan.",
    409: "ALREADY_IN_ORGANIZATION: you belong to one already; SUBSCRIBER_FUNDS_POOL: your subscription pays for an organisation you have left."
  }
})
const currentDoc = orgDoc({ summary: "Your organisation", description: "Its members with their use of the month (and, for the owner and admins, whether each has two-step sign-in on: twoStep), the pool, the brand and whether two-step sign-in is required (requireMfa).", data: ORGANIZATION, errors: NOT_MEMBER })
const updateDoc = orgDoc({
  summary: "Rename it, set its accent colour, or require two-step sign-in",
  description:
    "The name and colour: the owner and admins. requireMfa: the owner alone; while it is on, every member (the owner too) needs two-step sign-in to draw from the pool, and is refused 403 MFA_ENROLLMENT_REQUIRED without it. Audited (organization.require_mfa_set).",
  body: updateOrganizationSchema,
  data: ORGANIZATION,
  errors: {
    ...NOT_MEMBER,
    403: "FORBIDDEN: only the owner and admins can rename it or set its colour, and only the owner can change requireMfa; MFA_ENROLLMENT_REQUIRED: the owner turns requireMfa on only with two-step sign-in on their own account."
  }
})
const logoDoc = orgDoc({
  summary: "Upload its logo",
  description: `multipart/form-data with the file field "logo": PNG, JPEG or WebP, at most ${MAX_LOGO_BYTES / 1024} KB, cut to the centre square.`,
  consumes: ["multipart/form-data"],
  data: ORGANIZATION,
  errors: { ...MANAGERS_ONLY, 413: "PAYLOAD_TOO_LARGE: the logo is over 256 KB.", 415: "INVALID_IMAGE: not a PNG, JPEG or WebP picture." }
})
const logoParamsSchema = z.strictObject({ id: z.uuid(), name: z.string().max(100) })
const logoFileDoc = orgDoc({
  summary: "An organisation's logo",
  description: "Public: the extension shows it in its members' header. Each upload has a new address, kept by caches for a year.",
  params: logoParamsSchema,
  answers: { 200: { description: "The logo, a 256-pixel square PNG.", content: { "image/png": { schema: z.file().mime("image/png") } } } },
  errors: { 404: "NOT_FOUND: no such logo." }
})
const inviteDoc = orgDoc({
  summary: "Invite someone by e-mail",
  description:
    "A one-time link valid 7 days, sent through the outbox; sending again to the same address replaces the pending invitation. One e-mail a minute and 5 a day to an address (its sub-addresses included), 30 an hour from an organisation.",
  body: inviteMemberSchema,
  data: { 201: invitationSchema },
  errors: {
    ...MANAGERS_ONLY,
    409: "ALREADY_IN_ORGANIZATION: the address belongs to a member of an organisation; ORGANIZATION_FULL: 25 members and invitations.",
    429: "TOO_MANY_REQUESTS: the address was invited a moment ago or 5 times today, or the organisation sent 30 invitations this hour (retryAfter in seconds)."
  }
})
const activityDoc = orgDoc({
  summary: "The latest membership changes",
  description: "Who did what, to whom and when: made, renamed, invited, withdrawn, joined, left, removed, role, transfer, limit, two-step rule. Newest first, at most 50.",
  data: { 200: z.array(organizationActivitySchema) },
  errors: NOT_MEMBER
})
const invitationsDoc = orgDoc({ summary: "Pending invitations", data: { 200: z.array(invitationSchema) }, errors: MANAGERS_ONLY })
const revokeDoc = orgDoc({ summary: "Withdraw an invitation", params: invitationParamsSchema, data: { 200: confirmationSchema("revoked") }, errors: MANAGERS_ONLY })
const acceptDoc = orgDoc({
  summary: "Accept an invitation",
  description: "With the code of the e-mail's link, signed in as the invited address.",
  body: acceptInvitationSchema,
  data: ORGANIZATION,
  errors: {
    400: "INVALID_OR_EXPIRED_CODE: unknown, withdrawn, used or expired.",
    403: "INVITATION_NOT_FOR_YOU: sent to another address.",
    409: "ALREADY_IN_ORGANIZATION, CANCEL_SUBSCRIPTION_FIRST (a plan of your own), or ORGANIZATION_FULL."
  }
})
/** The subscriber stays while their subscription funds the pool: it would go on drawing on someone outside it. */
const SUBSCRIBER_STAYS = { 409: "SUBSCRIBER_FUNDS_POOL: the subscriber, whose Enterprise plan funds the pool, cannot be removed, leave or become a member while it does." }
const roleDoc = orgDoc({ summary: "Change a member's role", params: memberParamsSchema, body: changeRoleSchema, data: ORGANIZATION, errors: { ...MANAGERS_ONLY, ...SUBSCRIBER_STAYS } })
const removeDoc = orgDoc({
  summary: "Remove a member, or leave",
  description: "A member may remove themself (leaving); the owner and admins remove others. Their next request counts against their own plan.",
  params: memberParamsSchema,
  data: { 200: confirmationSchema("removed") },
  errors: { ...MANAGERS_ONLY, ...SUBSCRIBER_STAYS }
})
const transferDoc = orgDoc({ summary: "Transfer the ownership", description: "The former owner becomes an admin. The subscription that funds the pool does not move: its subscriber goes on paying.", body: transferOwnershipSchema, data: ORGANIZATION, errors: OWNER_ONLY })
const deleteDoc = orgDoc({ summary: "Delete the organisation", description: "Its members fall back to their own plans; the subscription stays its subscriber's.", data: { 200: confirmationSchema("deleted") }, errors: OWNER_ONLY })

export async function organizationRoutes(app: FastifyInstance): Promise<void> {
  const organizations = organizationService(app)
  const logos = logoStorage(app.config)
  await app.register(multipart, { throwFileSizeLimit: true, limits: { fileSize: MAX_LOGO_BYTES, files: 1, fields: 0, parts: 1 } })

  app.post("/api/organizations", { onRequest: requireUser, schema: createDoc }, async (request, reply) => {
    const input = parseRequest(request, "body", createOrganizationSchema)
    return reply.status(201).send(ok(await organizations.create(request.auth!, input, request.ip)))
  })

  app.get("/api/organizations/current", { onRequest: requireUser, schema: currentDoc }, async (request) => ok(await organizations.view(request.auth!)))

  app.patch("/api/organizations/current", { onRequest: requireUser, schema: updateDoc }, async (request) =>
    ok(await organizations.update(request.auth!, parseRequest(request, "body", updateOrganizationSchema), request.ip))
  )

  app.put("/api/organizations/current/logo", { onRequest: requireUser, schema: logoDoc }, async (request) => {
    if (!request.isMultipart()) throw new ApiError(415, "UNSUPPORTED_MEDIA_TYPE", 'Send the logo as multipart/form-data, in the file field "logo".')
    const organizationId = await organizations.managedOrganizationId(request.auth!)
    let bytes: Buffer | null = null
    try {
      const file = await request.file()
      if (file?.fieldname === "logo") bytes = await file.toBuffer()
    } catch (error) {
      if ((error as { code?: string }).code === "FST_REQ_FILE_TOO_LARGE") throw logoTooLarge()
      throw validationFailed(['logo: the form could not be read; send the file in the field "logo"'])
    }
    if (!bytes) throw validationFailed(['logo: send the picture in the file field "logo"'])
    const name = await storeLogo(logos, organizationId, bytes)
    const { previous, organization } = await organizations.setLogo(request.auth!, name)
    if (previous) await logos.remove(previous).catch((error: unknown) => request.log.warn({ err: error }, "an organisation's former logo could not be removed"))
    return ok(organization)
  })

  app.get("/api/organizations/:id/logo/:name", { schema: logoFileDoc }, async (request, reply) => {
    const { id, name } = parseRequest(request, "params", logoParamsSchema)
    if (!name.startsWith(`${id}-`) || !/^[0-9a-f-]+\.png$/.test(name)) throw notFound("No such logo.")
    const stream = await logos.read(name)
    if (!stream) throw notFound("No such logo.")
    return reply.headers({ "content-type": "image/png", "cache-control": "public, max-age=31536000, immutable", "cross-origin-resource-policy": "cross-origin" }).send(stream)
  })

  app.post("/api/organizations/current/invitations", { onRequest: requireUser, schema: inviteDoc }, async (request, reply) => {
    const input = parseRequest(request, "body", inviteMemberSchema)
    return reply.status(201).send(ok(await organizations.invite(request.auth!, input, request.ip)))
  })

  app.get("/api/organizations/current/activity", { onRequest: requireUser, schema: activityDoc }, async (request) => ok(await organizations.activity(request.auth!)))

  app.get("/api/organizations/current/invitations", { onRequest: requireUser, schema: invitationsDoc }, async (request) => ok(await organizations.invitations(request.auth!)))

  app.delete("/api/organizations/current/invitations/:id", { onRequest: requireUser, schema: revokeDoc }, async (request) => {
    await organizations.revokeInvitation(request.auth!, parseRequest(request, "params", invitationParamsSchema).id, request.ip)
    return ok({ revoked: true as const })
  })

  app.post("/api/organizations/invitations/accept", { onRequest: requireUser, schema: acceptDoc }, async (request) =>
    ok(await organizations.accept(request.auth!, parseRequest(request, "body", acceptInvitationSchema).code, request.ip))
  )

  app.patch("/api/organizations/current/members/:userId", { onRequest: requireUser, schema: roleDoc }, async (request) => {
    const { userId } = parseRequest(request, "params", memberParamsSchema)
    return ok(await organizations.changeRole(request.auth!, userId, parseRequest(request, "body", changeRoleSchema).role, request.ip))
  })

  app.delete("/api/organizations/current/members/:userId", { onRequest: requireUser, schema: removeDoc }, async (request) => {
    await organizations.removeMember(request.auth!, parseRequest(request, "params", memberParamsSchema).userId, request.ip)
    return ok({ removed: true as const })
  })

  app.post("/api/organizations/current/transfer", { onRequest: requireUser, schema: transferDoc }, async (request) =>
    ok(await organizations.transfer(request.auth!, parseRequest(request, "body", transferOwnershipSchema).userId, request.ip))
  )

  app.delete("/api/organizations/current", { onRequest: requireUser, schema: deleteDoc }, async (request) => {
    const { logoKey } = await organizations.delete(request.auth!, request.ip)
    if (logoKey) await logos.remove(logoKey).catch((error: unknown) => request.log.warn({ err: error }, "a deleted organisation's logo could not be removed"))
    return ok({ deleted: true as const })
  })
}
