/**
 * The admin's calls: the feedback inbox, the password policy and GET /api/admin/overview, their answers checked
 * against their schemas at run time, and the keys of the admin panel's queries.
 */
import * as z from "zod"

import { adminOverviewSchema } from "~core/admin/admin-overview"
import {
  feedbackDeletedAnswerSchema,
  feedbackListMetaSchema,
  feedbackSchema,
  type FeedbackStatus
} from "~core/admin/feedback"
import { adminPolicyViewSchema, type PasswordPolicyConfig } from "~core/password-policy"
import { parseAnswer } from "~site-session/parse-answer"
import { getApiClient } from "~site-session/site-client"

export type FeedbackFilter = FeedbackStatus | "all"

const FEEDBACK_ROOT = ["admin", "feedback"] as const

/** The admin panel's queries; its pages with their own calls (users, analytics…) keep their keys beside them, also under "admin". */
export const adminKeys = {
  overview: ["admin", "overview"] as const,
  /** Every page of the inbox, whatever its filter: what a change refreshes. */
  feedback: FEEDBACK_ROOT,
  feedbackPage: (filter: FeedbackFilter, page: number) => [...FEEDBACK_ROOT, filter, page] as const,
  passwordPolicy: ["admin", "password-policy"] as const
}

export const fetchOverview = async () => parseAnswer(adminOverviewSchema, await getApiClient().get("/api/admin/overview"))

const feedbackPageSchema = z.object({ data: z.array(feedbackSchema), meta: feedbackListMetaSchema })
export type FeedbackPage = z.infer<typeof feedbackPageSchema>

export async function fetchFeedbackPage(status: FeedbackFilter, page = 1): Promise<FeedbackPage> {
  const path = status === "all" ? "/api/feedback" : `/api/feedback/status/${status}`
  return parseAnswer(feedbackPageSchema, await getApiClient().getPage(path, { params: { page } }))
}

const feedbackPath = (id: string) => `/api/feedback/${encodeURIComponent(id)}`

export const updateFeedbackStatus = async (id: string, status: FeedbackStatus) => parseAnswer(feedbackSchema, await getApiClient().put(feedbackPath(id), { status }))

export const replyToFeedback = async (id: string, message: string, adminEmail?: string) =>
  parseAnswer(feedbackSchema, await getApiClient().post(`${feedbackPath(id)}/reply`, { message, adminEmail }))

export const deleteFeedback = async (id: string) => parseAnswer(feedbackDeletedAnswerSchema, await getApiClient().delete(feedbackPath(id)))

export const fetchFeedbackImage = (url: string, signal?: AbortSignal) => getApiClient().getBlob(url, { signal })

/** What the admin GET of the policy answers: the rules, the refusal messages and the options. */
export type AdminPolicyView = z.infer<typeof adminPolicyViewSchema>

const POLICY_PATH = "/api/password-policy/config"
const policyAnswer = async (call: Promise<unknown>): Promise<AdminPolicyView> => parseAnswer(adminPolicyViewSchema, await call)

export const fetchAdminPolicy = () => policyAnswer(getApiClient().get(POLICY_PATH))

/** The whole policy from the admin view, as the schema and the export file have it. */
export function toPolicyConfig(view: AdminPolicyView): PasswordPolicyConfig {
  return { rules: view.config.rules, customRules: view.config.customRules, messages: view.messages, ...view.options }
}

/** Saves a whole policy through PUT /api/password-policy/config. */
export function savePolicy(policy: PasswordPolicyConfig) {
  const { rules, customRules, messages, strictMode, allowOverride, logViolations, rateLimitAttempts, lockoutDuration } = policy
  return policyAnswer(
    getApiClient().put(POLICY_PATH, {
      config: { rules, customRules },
      messages,
      options: { strictMode, allowOverride, logViolations, rateLimitAttempts, lockoutDuration }
    })
  )
}

/** Saves one rule's changed fields through PUT /api/password-policy/rules. */
export const saveRule = (update: Record<string, unknown> & { ruleName: string }) => policyAnswer(getApiClient().put("/api/password-policy/rules", update))
