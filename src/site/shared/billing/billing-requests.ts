/**
 * The site's billing calls (GET /api/billing/config, /subscription; POST test-payment, checkout, portal, change,
 * cancel, resume, trial) through the app's one API client, their answers checked at run time, and what follows a
 * change of the subscription: the stored user (plan in the header) and the queries that show the plan refreshed.
 *
 * Card data goes only through `payInTestMode`, a plain call: never through react-query (its mutation cache would
 * keep the variables), never logged, never stored.
 */
import { useQuery, useQueryClient, type Query } from "@tanstack/react-query"
import { useCallback, useEffect, useRef } from "react"
import * as z from "zod"

import { ApiRequestError } from "~http/http-client"
import { getApiClient } from "~site-session/site-client"
import { useSession } from "~site-session/session-store"
import {
  billingConfigSchema,
  subscriptionSchema,
  TRIAL_PLAN,
  type BillingConfig,
  type PlanChoice,
  type Subscription,
  type TestPayment
} from "~core/billing/billing"
import type { PlanId } from "~core/billing/plans"
import { planIdOfUser } from "~core/user"
import { parseAnswer, unexpectedAnswer } from "~site-session/parse-answer"

import { effectivePlanId } from "./subscription-view"

export const BILLING_CONFIG_PATH = "/api/billing/config"
export const SUBSCRIPTION_PATH = "/api/billing/subscription"

/** react-query keys: the config is public; the subscription belongs to the signed-in account (its e-mail in the key). */
export const billingKeys = {
  config: ["billing", "config"] as const,
  subscription: (email: string) => ["billing", "subscription", email] as const
}


const subscriptionAnswer = z.object({ subscription: subscriptionSchema })
const urlAnswer = z.object({ url: z.string() })

export const fetchBillingConfig = async (): Promise<BillingConfig> => parseAnswer(billingConfigSchema, await getApiClient().get(BILLING_CONFIG_PATH))
export const fetchSubscription = async (): Promise<Subscription> => parseAnswer(subscriptionSchema, await getApiClient().get(SUBSCRIPTION_PATH))

const postForSubscription = async (path: string, body?: unknown): Promise<Subscription> =>
  parseAnswer(subscriptionAnswer, await getApiClient().post(path, body)).subscription

/** Test mode only. The card fields go in this one request and nowhere else. */
export const payInTestMode = (payment: TestPayment) => postForSubscription("/api/billing/test-payment", payment)
export const changePlan = (choice: PlanChoice) => postForSubscription("/api/billing/change", choice)
export const cancelSubscription = () => postForSubscription("/api/billing/cancel")
export const resumeSubscription = () => postForSubscription("/api/billing/resume")
/** Test mode: the trial starts at once, without a card. */
export const startTrial = () => postForSubscription("/api/billing/trial", { planId: TRIAL_PLAN })
/** Stripe mode: the trial's Checkout page, where the card is given; the trial starts when Stripe reports it. */
export const startTrialCheckout = async (): Promise<string> => parseAnswer(urlAnswer, await getApiClient().post("/api/billing/trial", { planId: TRIAL_PLAN })).url

/** Stripe mode: the hosted Checkout page of a new Checkout Session. */
export const createCheckout = async (choice: PlanChoice): Promise<string> =>
  parseAnswer(urlAnswer, await getApiClient().post("/api/billing/checkout", choice)).url
/** Stripe mode: the customer portal. */
export const createPortalSession = async (): Promise<string> => parseAnswer(urlAnswer, await getApiClient().post("/api/billing/portal")).url

/** Leaving the site for the payment provider; an object so tests can replace `assign`. */
export const providerNavigation = {
  assign(url: string): void {
    window.location.assign(url)
  }
}

/** Goes to a provider page the server named; anything but an http(s) address (e.g. javascript:) is refused. */
export function goToProvider(url: string): void {
  let protocol: string
  try {
    protocol = new URL(url).protocol
  } catch {
    throw unexpectedAnswer()
  }
  if (protocol !== "https:" && protocol !== "http:") throw unexpectedAnswer()
  providerNavigation.assign(url)
}

/** What to tell the user about a failed billing call: the server's message as text, or a general one. */
export function billingErrorMessage(error: unknown): string {
  if (error instanceof ApiRequestError && error.message) return error.message
  return "Something went wrong. Please try again."
}

/** The signed-in account's subscription record; idle while signed out. Refetched whenever a page showing it opens. */
export function useSubscription(options: { refetchInterval?: (data: Subscription | undefined, fetches: number) => number | false } = {}) {
  const { refetchInterval } = options
  const email = useSession((state) => (state.status === "loggedIn" ? state.user?.email : undefined))
  return useQuery<Subscription>({
    queryKey: billingKeys.subscription(email ?? ""),
    queryFn: fetchSubscription,
    enabled: Boolean(email),
    staleTime: 0,
    refetchOnMount: true,
    refetchInterval: refetchInterval && ((query: Query<Subscription>) => refetchInterval(query.state.data, query.state.dataUpdateCount))
  })
}

export function useBillingConfig() {
  return useQuery({ queryKey: billingKeys.config, queryFn: fetchBillingConfig })
}

/**
 * After a call that answered the new subscription: keep the answer and refresh the stored user so the header and the
 * pricing labels show the new plan (the plan shown elsewhere comes from the record). Resolves once it is refreshed.
 */
export function useSubscriptionChanged(): (subscription: Subscription) => Promise<void> {
  const queryClient = useQueryClient()
  return useCallback(
    async (subscription: Subscription) => {
      const email = useSession.getState().user?.email
      if (email) queryClient.setQueryData(billingKeys.subscription(email), subscription)
      await refreshStoredUser()
    },
    [queryClient]
  )
}

let storedUserRefresh: Promise<void> | null = null

/**
 * Refreshes the stored user, one request at a time: a change's own refresh and the one the dashboard's plan follower
 * asks for when the new record renders both start after the server answered, so one request serves both.
 */
function refreshStoredUser(): Promise<void> {
  storedUserRefresh ??= useSession
    .getState()
    .refreshProfile()
    .finally(() => {
      storedUserRefresh = null
    })
  return storedUserRefresh
}

/**
 * When the record shows another plan than the stored user (a webhook, another tab, a trial that ended), refreshes the
 * stored user so the header follows; once per plan seen, so a lagging profile cannot make it loop.
 */
export function useStoredPlanFollows(subscription: Subscription | undefined): void {
  const storedPlanId = useSession((state) => (state.user ? planIdOfUser(state.user) : "free"))
  const refreshedFor = useRef<PlanId | null>(null)
  useEffect(() => {
    if (!subscription) return
    const planId = effectivePlanId(subscription)
    if (planId === storedPlanId || refreshedFor.current === planId) return
    refreshedFor.current = planId
    void refreshStoredUser()
  }, [subscription, storedPlanId])
}
