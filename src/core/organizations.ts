/**
 * Teams, as Enterprise sells them: an organisation owns the Enterprise subscription of the person who made it, and
 * its members draw from one monthly pool of AI requests. The roles, limits and the shapes the /api/organizations
 * routes take and answer live here, read alike by the server, the site and the extension.
 */
import * as z from "zod"

/** Members an organisation may have, its owner included. */
export const MAX_ORGANIZATION_MEMBERS = 25
/** How long an invitation's link works. */
export const INVITATION_VALID_DAYS = 7
/**
 * Invitations are e-mails to any address with our name on them, so they are few. To one address from one
 * organisation: one a minute (the resend cooldown) and 5 a day. From one organisation in all: 30 an hour, enough
 * to invite a whole team (24 seats beside the owner) at once with a few sent again.
 */
export const INVITATION_RESEND_COOLDOWN_SECONDS = 60
export const INVITATIONS_PER_ADDRESS_PER_DAY = 5
export const INVITATIONS_PER_ORGANIZATION_PER_HOUR = 30
export const ORGANIZATION_NAME_MAX_LENGTH = 80

/** owner: one, may transfer ownership and delete the organisation; admin: invites, removes and changes roles below owner. */
export const ORGANIZATION_ROLES = ["owner", "admin", "member"] as const
export type OrganizationRole = (typeof ORGANIZATION_ROLES)[number]
/** The roles an invitation or a role change may give: ownership passes only by a transfer. */
export const ASSIGNABLE_ROLES = ["admin", "member"] as const
export type AssignableRole = (typeof ASSIGNABLE_ROLES)[number]

/** Whether `role` may invite, remove members and change their roles (never the owner's). */
export const managesMembers = (role: OrganizationRole) => role === "owner" || role === "admin"

const organizationName = z
  .string()
  .trim()
  .min(1, "Name the organisation")
  .max(ORGANIZATION_NAME_MAX_LENGTH)
  // Shown in e-mail subjects and the extension's header: one line of text.
  .regex(/^[^\p{Cc}]*$/u, "The name must be one line of text")

export const ACCENT_COLOR_PATTERN = /^#[0-9a-f]{6}$/
const accentColor = z.string().trim().toLowerCase().regex(ACCENT_COLOR_PATTERN, "The colour must be written #rrggbb")

export const createOrganizationSchema = z.strictObject({ name: organizationName })
/** The name and colour: the owner and admins; requireMfa: the owner alone (a rule over every member, themself included). */
export const updateOrganizationSchema = z
  .strictObject({
    name: organizationName.optional(),
    accentColor: accentColor.nullable().optional(),
    requireMfa: z.boolean({ message: "requireMfa must be true or false" }).optional()
  })
  .refine((update) => update.name !== undefined || update.accentColor !== undefined || update.requireMfa !== undefined, "Send a name, an accent colour or requireMfa to change")
export type OrganizationUpdate = z.infer<typeof updateOrganizationSchema>

export const inviteMemberSchema = z.strictObject({
  email: z.string().trim().toLowerCase().pipe(z.email({ message: "Enter a valid e-mail address" })).pipe(z.string().max(254)),
  role: z.enum(ASSIGNABLE_ROLES, { message: "The role must be admin or member" })
})
export const acceptInvitationSchema = z.strictObject({ code: z.string().trim().min(1, "The invitation's code is missing").max(200) })
export const changeRoleSchema = z.strictObject({ role: z.enum(ASSIGNABLE_ROLES, { message: "The role must be admin or member" }) })
export const transferOwnershipSchema = z.strictObject({ userId: z.uuid({ message: "Name the member who becomes the owner" }) })
export const memberParamsSchema = z.strictObject({ userId: z.uuid({ message: "Not a member's id" }) })
export const invitationParamsSchema = z.strictObject({ id: z.uuid({ message: "Not an invitation's id" }) })

export const organizationBrandSchema = z.object({
  name: z.string(),
  /** Public: the extension shows it. Null until a logo is uploaded. */
  logoUrl: z.string().nullable(),
  accentColor: z.string().nullable()
})
export type OrganizationBrand = z.infer<typeof organizationBrandSchema>

export const organizationMemberSchema = z.object({
  userId: z.string(),
  email: z.string(),
  name: z.string(),
  role: z.enum(ORGANIZATION_ROLES),
  usedThisMonth: z.number().int(),
  /** Whether they have two-step sign-in on: answered to the owner and admins only, who decide and ask about it. */
  twoStep: z.boolean().optional()
})
export type OrganizationMember = z.infer<typeof organizationMemberSchema>

/** The pool every member's questions, translations and API calls draw from; limit null is unlimited. */
export const organizationPoolSchema = z.object({ limit: z.number().int().nullable(), used: z.number().int() })

export const organizationSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The caller's role in it. */
  role: z.enum(ORGANIZATION_ROLES),
  members: z.array(organizationMemberSchema),
  pool: organizationPoolSchema,
  brand: organizationBrandSchema,
  /**
   * The account whose Enterprise subscription funds the pool: the person who made the organisation, whoever owns it
   * now. While it funds the pool they can be neither removed nor demoted to member.
   */
  subscriberId: z.string(),
  /**
   * The owner requires two-step sign-in of every member, themself included: a member without a second factor draws
   * nothing from the pool (403 MFA_ENROLLMENT_REQUIRED) until they turn it on.
   */
  requireMfa: z.boolean()
})
export type Organization = z.infer<typeof organizationSchema>

export const invitationSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: z.enum(ASSIGNABLE_ROLES),
  expiresAt: z.string()
})
export type Invitation = z.infer<typeof invitationSchema>

/** The membership an account's profile carries, for the site's dashboard and the extension's header. */
export const membershipSchema = z.object({ id: z.string(), name: z.string(), role: z.enum(ORGANIZATION_ROLES), brand: organizationBrandSchema })
export type Membership = z.infer<typeof membershipSchema>

/** What the usage answer says of the pool a member draws from. */
export const poolUsageSchema = z.object({ organizationId: z.string(), name: z.string(), limit: z.number().int().nullable(), used: z.number().int() })
export type PoolUsage = z.infer<typeof poolUsageSchema>

/** What a site admin sees of an organisation: its subscriber, limit, pool and members. */
export const adminOrganizationSchema = z.object({
  id: z.string(),
  name: z.string(),
  subscriber: z.object({ id: z.string(), email: z.string() }),
  pool: organizationPoolSchema,
  members: z.array(organizationMemberSchema)
})
export type AdminOrganization = z.infer<typeof adminOrganizationSchema>
export const organizationIdParamsSchema = z.strictObject({ id: z.uuid({ message: "Not an organisation's id" }) })

/** The organisation page's activity: the latest membership changes, newest first. */
export const ORGANIZATION_ACTIVITY_SHOWN = 50
const activityPerson = z.object({ name: z.string(), email: z.string() }).nullable()
export const organizationActivitySchema = z.object({
  kind: z.string(),
  actor: activityPerson,
  subject: activityPerson,
  /** What changed: role, from and to, the invited address. */
  detail: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
  at: z.string()
})
export type OrganizationActivity = z.infer<typeof organizationActivitySchema>
