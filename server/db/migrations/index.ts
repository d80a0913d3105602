import type { Migration, MigrationProvider } from "kysely"

import * as appSettings from "./001-app-settings"
import * as accounts from "./002-accounts"
import * as usage from "./003-usage"
import * as feedback from "./004-feedback"
import * as sessionBinding from "./005-session-binding"
import * as signInChecks from "./006-sign-in-checks"
import * as billing from "./007-billing"
import * as sharedLimits from "./008-shared-limits"
import * as emailOutbox from "./009-email-outbox"
import * as identityTraces from "./010-identity-traces"
import * as billingIntegrity from "./011-billing-integrity"
import * as apiKeys from "./012-api-keys"
import * as apiCallDays from "./013-api-call-days"
import * as organizations from "./014-organizations"
import * as adminUsers from "./015-admin-users"
import * as auditLog from "./016-audit-log"
import * as analytics from "./017-analytics"
import * as blogPosts from "./018-blog-posts"
import * as trialClaims from "./019-trial-claims"
import * as twoStepSignIn from "./020-two-step-sign-in"
import * as passkeys from "./021-passkeys"
import * as organizationRequireMfa from "./022-organization-require-mfa"
import * as organizationDomains from "./023-organization-domains"
import * as organizationSso from "./024-organization-sso"
import * as ssoSignIn from "./025-sso-sign-in"
import * as scim from "./026-scim"
import * as webhooks from "./027-webhooks"

/** Migrations in the order they apply; names never change once released. */
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
