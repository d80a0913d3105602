import type { Migration, MigrationProvider } from "kysely"

import * as appSettings from "./accounts-and-billing/001-app-settings"
import * as accounts from "./accounts-and-billing/002-accounts"
import * as usage from "./accounts-and-billing/003-usage"
import * as feedback from "./accounts-and-billing/004-feedback"
import * as sessionBinding from "./accounts-and-billing/005-session-binding"
import * as signInChecks from "./accounts-and-billing/006-sign-in-checks"
import * as billing from "./accounts-and-billing/007-billing"
import * as sharedLimits from "./accounts-and-billing/008-shared-limits"
import * as emailOutbox from "./accounts-and-billing/009-email-outbox"
import * as identityTraces from "./accounts-and-billing/010-identity-traces"
import * as billingIntegrity from "./accounts-and-billing/011-billing-integrity"
import * as apiKeys from "./accounts-and-billing/012-api-keys"
import * as apiCallDays from "./accounts-and-billing/013-api-call-days"
import * as organizations from "./accounts-and-billing/014-organizations"
import * as adminUsers from "./accounts-and-billing/015-admin-users"
import * as auditLog from "./accounts-and-billing/016-audit-log"
import * as analytics from "./accounts-and-billing/017-analytics"
import * as blogPosts from "./accounts-and-billing/018-blog-posts"
import * as trialClaims from "./accounts-and-billing/019-trial-claims"
import * as twoStepSignIn from "./sign-in-and-enterprise/020-two-step-sign-in"
import * as passkeys from "./sign-in-and-enterprise/021-passkeys"
import * as organizationRequireMfa from "./sign-in-and-enterprise/022-organization-require-mfa"
import * as organizationDomains from "./sign-in-and-enterprise/023-organization-domains"
import * as organizationSso from "./sign-in-and-enterprise/024-organization-sso"
import * as ssoSignIn from "./sign-in-and-enterprise/025-sso-sign-in"
import * as scim from "./sign-in-and-enterprise/026-scim"
import * as webhooks from "./sign-in-and-enterprise/027-webhooks"

/**
 * Migrations in the order they apply; names never change once released. The files sit in two folders by what they
 * hold (accounts-and-billing: 001 to 019; sign-in-and-enterprise: 020 on); the order is the names', not the folders'.
 */
const MIGRATIONS: Record<string, Migration> = {
  "001-app-settings": appSettings,
  "002-accounts": accounts,
  "003-usage": usage,
  "004-feedback": feedback,
  "005-session-binding": sessionBinding,
  "006-sign-in-checks": signInChecks,
  "007-billing": billing,
  "008-shared-limits": sharedLimits,
  "009-email-outbox": emailOutbox,
  "010-identity-traces": identityTraces,
  "011-billing-integrity": billingIntegrity,
  "012-api-keys": apiKeys,
  "013-api-call-days": apiCallDays,
  "014-organizations": organizations,
  "015-admin-users": adminUsers,
  "016-audit-log": auditLog,
  "017-analytics": analytics,
  "018-blog-posts": blogPosts,
  "019-trial-claims": trialClaims,
  "020-two-step-sign-in": twoStepSignIn,
  "021-passkeys": passkeys,
  "022-organization-require-mfa": organizationRequireMfa,
  "023-organization-domains": organizationDomains,
  "024-organization-sso": organizationSso,
  "025-sso-sign-in": ssoSignIn,
  "026-scim": scim,
  "027-webhooks": webhooks
}

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => MIGRATIONS
}
