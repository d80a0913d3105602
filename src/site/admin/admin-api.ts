/** The admin's calls: the feedback inbox, the password policy and GET /api/admin/overview. */
import { getApiClient } from "~site-session/site-api"
import type { AdminOverview, Feedback, FeedbackListMeta, FeedbackStatus } from "~core/admin/feedback"
import type { PasswordPolicyConfig } from "~core/password-policy"

export const fetchOverview = () => getApiClient().get<AdminOverview>("/api/admin/overview")

export function fetchFeedbackPage(status: FeedbackStatus | "all", page = 1) {
  const path = status === "all" ? "/api/feedback" : `/api/feedback/status/${status}`
  return getApiClient().getPage<Feedback[], FeedbackListMeta>(path, { params: { page } })
}

export const updateFeedbackStatus = (id: string, status: FeedbackStatus) => getApiClient().put<Feedback>(`/api/feedback/${id}`, { status })

export const replyToFeedback = (id: string, message: string, adminEmail?: string) =>
  getApiClient().post<Feedback>(`/api/feedback/${id}/reply`, { message, adminEmail })

export const deleteFeedback = (id: string) => getApiClient().delete<{ deleted: true; id: string }>(`/api/feedback/${id}`)

export const fetchFeedbackImage = (url: string, signal?: AbortSignal) => getApiClient().getBlob(url, { signal })

/** What the admin GET of the policy answers. */
export interface AdminPolicyView {
  config: Pick<PasswordPolicyConfig, "rules" | "customRules"> & { strictMode: boolean }
  messages: PasswordPolicyConfig["messages"]
  options: Pick<PasswordPolicyConfig, "strictMode" | "allowOverride" | "logViolations" | "rateLimitAttempts" | "lockoutDuration">
}

export const fetchAdminPolicy = () => getApiClient().get<AdminPolicyView>("/api/password-policy/config")

/** The whole policy from the admin view, as the schema and the export file have it. */
export function toPolicyConfig(view: AdminPolicyView): PasswordPolicyConfig {
  return { rules: view.config.rules, customRules: view.config.customRules, messages: view.messages, ...view.options }
}

/** Saves a whole policy through PUT /api/password-policy/config. */
export function savePolicy(policy: PasswordPolicyConfig) {
  const { rules, customRules, messages, strictMode, allowOverride, logViolations, rateLimitAttempts, lockoutDuration } = policy
  return getApiClient().put<AdminPolicyView>("/api/password-policy/config", {
    config: { rules, customRules },
    messages,
    options: { strictMode, allowOverride, logViolations, rateLimitAttempts, lockoutDuration }
  })
}

/** Saves one rule's changed fields through PUT /api/password-policy/rules. */
export const saveRule = (update: Record<string, unknown> & { ruleName: string }) =>
  getApiClient().put<AdminPolicyView>("/api/password-policy/rules", update)
