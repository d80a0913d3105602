import type { ColumnType, Generated } from "kysely"

import type { FeedbackImageType, FeedbackStatus } from "~core/admin/feedback"
import type { BillingInterval, SubscriptionStatus } from "~core/billing/billing"
import type { AssignableRole, OrganizationRole } from "~core/organizations"
import type { PlanId } from "~core/billing/plans"
import type { Role } from "~core/user"

import type { Defaulted, Timestamp } from "./column-types"
import type { MfaChallengesTable, OrganizationDomainsTable, OrganizationSsoTable, PasskeysTable, RecoveryCodesTable, SsoCodesTable, SsoLoginsTable, TotpFactorsTable, WebauthnChallengesTable } from "./schema-sign-in"
import type { ScimTables } from "./schema-scim"
import type { WebhookTables } from "./schema-webhooks"

type DefaultedTimestamp = ColumnType<Date, Date | string | undefined, Date | string>

/** Settings the server keeps as JSON documents, one row per key (the password policy, for one). */
export interface AppSettingsTable {
  key: string
  value: unknown
  updated_at: DefaultedTimestamp
}

export interface UsersTable {
  id: Generated<string>
  email: string
  name: string
  role: Defaulted<Role>
  password_hash: string | null
  email_verified_at: Timestamp | null
  google_uid: string | null
  plan_id: Defaulted<PlanId>
  subscription_status: Generated<string>
  terms_accepted_at: Timestamp | null
  /** Enterprise: monthly request limit set by an admin; null means unlimited. */
  request_limit: Defaulted<number | null>
  /** When the plan may change by time alone (a trial's end, the end of a cancelled or downgraded period); null when not. */
  plan_review_at: Defaulted<Date | null>
  created_at: DefaultedTimestamp
  updated_at: DefaultedTimestamp
  /** When an admin disabled the account: no sign-in, session or API key of it is accepted; null when enabled. */
  disabled_at: Defaulted<Date | null>
  /** The latest sign-in that opened a site session (password or Google); null before the first. */
  last_sign_in_at: Defaulted<Date | null>
}

export interface SignInFailuresTable {
  email: string
  failures: number
  last_failure_at: Timestamp
  locked_until: Timestamp | null
  /** Password checks started and not yet finished; they hold slots of the attempts left. */
  checks_in_flight: Defaulted<number>
  /** When the latest of them started: slots older than a check could take are given back (a crashed request). */
  checks_started_at: Timestamp | null
}

export interface SessionsTable {
  id: Generated<string>
  user_id: string
  client: Defaulted<string>
  token_hash: string
  /** The site session an extension session was opened from; null for a site session. */
  parent_session_id: string | null
  rotated_at: Timestamp | null
  created_at: Timestamp
  last_used_at: Timestamp
  /** When the refresh token runs out; never after absolute_expires_at. */
  expires_at: Timestamp
  /** The end no refresh can move. */
  absolute_expires_at: Timestamp
  revoked_at: Timestamp | null
}

export interface RetiredRefreshTokensTable {
  token_hash: string
  session_id: string
  retired_at: Timestamp
}

export type OneTimeCodePurpose = "verify_email" | "reset_password"

export interface OneTimeCodesTable {
  code_hash: string
  user_id: string
  purpose: OneTimeCodePurpose
  created_at: Timestamp
  expires_at: Timestamp
  used_at: Timestamp | null
}

export interface PasswordHistoryTable {
  id: Generated<string>
  user_id: string
  password_hash: string
  created_at: Timestamp
}

export interface PolicyViolationsTable {
  id: Generated<string>
  user_id: string | null
  action: string
  codes: ColumnType<string[], string, string>
  created_at: Timestamp
}

/** Questions to the vision model per user and UTC calendar month ("2026-11"). */
export interface UsageCountersTable {
  user_id: string
  month: string
  used: number
  updated_at: Timestamp
}

export interface FeedbackTable {
  id: Generated<string>
  email: string
  message: string
  status: Defaulted<FeedbackStatus>
  created_at: Timestamp
  updated_at: Timestamp
}

/** One stored image of a feedback; the file is DATA_DIR/uploads/feedback/{file_name}. */
export interface FeedbackImagesTable {
  file_name: string
  feedback_id: string
  position: number
  content_type: FeedbackImageType
  byte_size: number
  original_name: string
}

export interface FeedbackRepliesTable {
  id: Generated<string>
  feedback_id: string
  message: string
  admin_email: string
  admin_user_id: string | null
  created_at: Timestamp
}

/** The subscription record of an account (see server/billing). */
export interface SubscriptionsTable {
  user_id: string
  provider: "test" | "stripe"
  plan_id: PlanId
  status: SubscriptionStatus
  billing_interval: BillingInterval | null
  current_period_end: Timestamp | null
  cancel_at_period_end: Defaulted<boolean>
  trial_end: Timestamp | null
  trial_started_at: Timestamp | null
  scheduled_plan_id: PlanId | null
  stripe_customer_id: string | null
  stripe_subscription_id: string | null
  /** When the provider's event that ended the subscription was created: no older event reopens it. */
  closed_by_event_at: Timestamp | null
  updated_at: Timestamp
}

/** The payment provider's webhook events already processed: each is applied once. */
export interface BillingEventsTable {
  event_id: string
  type: string
  received_at: Timestamp
}

/** What a deleted account leaves, per keyed hash of its address or Google uid (server/auth/identity-trace-store.ts). */
export interface IdentityTracesTable {
  key_hash: string
  trial_used_at: Timestamp | null
  /** The UTC month of usage_used ("2026-11"). */
  usage_month: string | null
  usage_used: Defaulted<number>
  updated_at: Timestamp
  /** The account that holds the trial of this key; null for a deleted account's (migration 019). */
  trial_user_id: Defaulted<string | null>
}

/** Trials Stripe started for a person who had had one, cancelled at once: one row per subscription (migration 019). */
export interface TrialRefusalsTable {
  stripe_subscription_id: string
  user_id: string
  reason: "account" | "identity" | "card"
  refused_at: Timestamp
}

/** E-mails to send, and requests for one (server/mail/outbox.ts). */
export interface EmailOutboxTable {
  id: Generated<string>
  /** Queueing order. */
  seq: Generated<string>
  kind: "message" | "request"
  /** The address; for a request, the normalised address asked for. */
  recipient: string
  /** What the e-mail is ("password reset"); for a request, the purpose of the code asked for. */
  what: string
  subject: string | null
  body: string | null
  created_at: Timestamp
  attempts: Defaulted<number>
  next_attempt_at: Timestamp
  /** Claimed by a worker until then; another instance takes it over once it has passed. */
  locked_until: Timestamp | null
  sent_at: Timestamp | null
  /** Given up: failed for longer than the retry window, or refused for good. */
  failed_at: Timestamp | null
  /** The last failure's kind (no content, no address). */
  last_error: string | null
}

/** Events per key of a shared limit (server/limits). */
export interface LimitEventsTable {
  key: string
  hits: Date[]
  expires_at: Date
}

/** Personal API keys: only the SHA-256 of each key is kept. */
export interface ApiKeysTable {
  id: Generated<string>
  user_id: string
  name: string
  prefix: string
  key_hash: string
  created_at: Timestamp
  last_used_at: Timestamp | null
  revoked_at: Timestamp | null
}

/** The public API's answered calls per key, UTC day ("2026-11-27") and endpoint. */
export interface ApiCallDaysTable {
  key_id: string
  user_id: string
  day: string
  endpoint: string
  calls: number
}

/** The audit log: rows are only ever added. */
export interface AuditEventsTable {
  id: Generated<string>
  kind: string
  actor_id: string | null
  subject_id: string | null
  detail: Defaulted<Record<string, unknown>>
  ip: string | null
  created_at: Timestamp
  /** The actor's address when the entry was written: kept after the account is deleted (migration 016). */
  actor_email: Defaulted<string | null>
  /** On whom or what, as a person reads it: the subject's address when written, or what the event names. */
  target: Defaulted<string | null>
}

export interface OrganizationsTable {
  id: Generated<string>
  name: string
  subscriber_id: string
  request_limit: number | null
  accent_color: string | null
  logo_key: string | null
  /** Every member needs a second factor to draw from the pool (migration 022). */
  require_mfa: Defaulted<boolean>
  created_at: Timestamp
}

export interface OrganizationMembersTable {
  organization_id: string
  user_id: string
  role: OrganizationRole
  joined_at: Timestamp
}

export interface OrganizationInvitationsTable {
  id: Generated<string>
  organization_id: string
  email: string
  role: AssignableRole
  code_hash: string
  invited_by: string | null
  created_at: Timestamp
  expires_at: Timestamp
  accepted_at: Timestamp | null
  revoked_at: Timestamp | null
}

export interface OrganizationUsageTable {
  organization_id: string
  month: string
  used: number
}

export interface OrganizationMemberUsageTable {
  organization_id: string
  user_id: string
  month: string
  used: number
}

/** Recorded events per UTC day ("2026-11-27") and metric (server/admin/analytics). */
export interface DailyMetricsTable {
  day: string
  metric: "questions" | "translations" | "signUps" | "feedback"
  count: number
}

/** The accounts that made an authenticated request on a UTC day. */
export interface ActiveUserDaysTable {
  day: string
  user_id: string
}

/** Every subscription record written, in order: the state of any past instant (server/billing/subscription-store.ts). */
export interface SubscriptionChangesTable {
  id: Generated<string>
  user_id: string
  at: Timestamp
  provider: SubscriptionsTable["provider"]
  plan_id: PlanId
  status: SubscriptionStatus
  billing_interval: BillingInterval | null
  current_period_end: Timestamp | null
  cancel_at_period_end: boolean
  trial_end: Timestamp | null
  scheduled_plan_id: PlanId | null
}

/** The blog's posts (migration 018): Markdown and the HTML rendered from it, draft or published. */
export interface BlogPostsTable {
  id: Generated<string>
  slug: string
  title: string
  excerpt: string
  content: string
  html: string
  category: string
  tags: Defaulted<string[]>
  featured_image_key: string | null
  status: "draft" | "published"
  published_at: Timestamp | null
  seo_title: string
  seo_description: string
  author_name: string
  author_role: string
  author_bio: string
  created_at: Timestamp
  updated_at: Timestamp
}

export interface DatabaseSchema extends WebhookTables, ScimTables {
  organization_sso: OrganizationSsoTable
  sso_logins: SsoLoginsTable
  sso_codes: SsoCodesTable
  organization_domains: OrganizationDomainsTable
  passkeys: PasskeysTable
  webauthn_challenges: WebauthnChallengesTable
  totp_factors: TotpFactorsTable
  recovery_codes: RecoveryCodesTable
  mfa_challenges: MfaChallengesTable
  blog_posts: BlogPostsTable
  daily_metrics: DailyMetricsTable
  active_user_days: ActiveUserDaysTable
  subscription_changes: SubscriptionChangesTable
  organization_member_usage: OrganizationMemberUsageTable
  organizations: OrganizationsTable
  organization_members: OrganizationMembersTable
  organization_invitations: OrganizationInvitationsTable
  organization_usage: OrganizationUsageTable
  api_keys: ApiKeysTable
  api_call_days: ApiCallDaysTable
  audit_events: AuditEventsTable
  identity_traces: IdentityTracesTable
  trial_refusals: TrialRefusalsTable
  email_outbox: EmailOutboxTable
  limit_events: LimitEventsTable
  subscriptions: SubscriptionsTable
  billing_events: BillingEventsTable
  app_settings: AppSettingsTable
  users: UsersTable
  sign_in_failures: SignInFailuresTable
  sessions: SessionsTable
  retired_refresh_tokens: RetiredRefreshTokensTable
  one_time_codes: OneTimeCodesTable
  password_history: PasswordHistoryTable
  policy_violations: PolicyViolationsTable
  usage_counters: UsageCountersTable
  feedback: FeedbackTable
  feedback_images: FeedbackImagesTable
  feedback_replies: FeedbackRepliesTable
}
