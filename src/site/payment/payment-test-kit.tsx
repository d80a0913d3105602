/**
 * What the payment tests share (payment-*.test.tsx): typing into a field, and the payment page through the whole app
 * against a fake API (the server's answers per billing mode and plan, a signed-in member, the card typed in).
 */
import { fireEvent, render, screen, waitFor } from "@testing-library/react"
import { afterEach, beforeEach, expect, vi } from "vitest"

import { teardownSession } from "~site-session/session-store"
import type { Subscription } from "~core/billing/billing"
import { getPlan } from "~core/billing/plans"
import { SESSION_STORAGE_KEYS, type User } from "~core/user"
import { FREE_SUBSCRIPTION as FREE, PERIOD_END } from "~site/shared/billing/subscriptions.test-support"

import { answer, createFakeApi, resetSiteForTest } from "../fake-api-server"
import { SiteApp } from "../SiteApp"

export const fill = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } })

/** Each test starts with empty storage, and ends with the session torn down and the mocks restored. */
export function setUpPaymentTests(): void {
  beforeEach(() => {
    window.localStorage.clear()
  })

  afterEach(() => {
    teardownSession()
    vi.restoreAllMocks()
  })
}

/* The payment page through the whole app, against a fake API. */

export const member: User = { name: "Ada Lovelace", email: "ada@example.com", role: "user", provider: "email" }
const accountUser = { ...member, id: "user-1", emailVerified: true, createdAt: "2030-01-01T00:00:00.000Z" }
const onPlan = (id: "pro" | "enterprise") => ({ ...accountUser, subscription: { plan: { id, name: getPlan(id).name }, status: "active" } })

export const paid = (plan: "pro" | "enterprise", extra: Partial<Subscription> = {}): Subscription => ({
  ...FREE,
  plan,
  interval: "month",
  currentPeriodEnd: PERIOD_END,
  trialAvailable: false,
  ...extra
})

export const EXPIRY_YEAR = String(new Date().getFullYear() + 2)
export const CARD_TYPED = "4242 4242 4242 4242"

export function createFakeServer(mode: "test" | "stripe", subscription: Subscription = FREE) {
  const state = { subscription, user: accountUser as typeof accountUser & { subscription?: unknown } }
  /** A payment or plan change that leaves the account on `plan`, answered as the server does. */
  const moveTo = (plan: "pro" | "enterprise") => {
    state.subscription = paid(plan, { mode })
    state.user = onPlan(plan)
    return answer({ subscription: state.subscription })
  }
  const server = createFakeApi([
    ["GET /api/billing/config", () => answer({ mode, trialDays: 14 })],
    ["GET /api/billing/subscription", () => answer(state.subscription)],
    ["GET /api/auth/profile", () => answer({ user: state.user })],
    ["GET /api/auth/auth-status", () => answer({ hasEmailAuth: true, hasGoogleAuth: false, providers: ["email"] })],
    ["POST /api/billing/test-payment", () => moveTo("pro")],
    ["POST /api/billing/checkout", () => answer({ url: "https://checkout.stripe.test/c/pay/cs_test_1" })]
  ])
  return { ...server, state, moveTo }
}

/** The fake server of the current test, set by useServer. */
export let server: ReturnType<typeof createFakeServer>

export function useServer(next: ReturnType<typeof createFakeServer>) {
  server = next
  resetSiteForTest(server.fetch)
}

export function signIn(user: User = member) {
  window.localStorage.setItem(SESSION_STORAGE_KEYS.authToken, "access-0")
  window.localStorage.setItem(SESSION_STORAGE_KEYS.refreshToken, "refresh-0")
  window.localStorage.setItem(SESSION_STORAGE_KEYS.user, JSON.stringify(user))
}

export async function openPayment(search = "?plan=pro&annual=false") {
  render(<SiteApp router="memory" initialPath={`/payment${search}`} />)
  await screen.findByRole("heading", { level: 1, name: /^Payment: / })
}

export async function fillValidCard(cardNumber = CARD_TYPED) {
  const email = (await screen.findByLabelText("Email")) as HTMLInputElement
  await waitFor(() => expect(email.value).toBe("ada@example.com"))
  fill("Card number", cardNumber)
  fill("Expiry month", "04")
  fill("Expiry year", EXPIRY_YEAR)
  fill("CVC", "123")
  fill("Cardholder name", "Ada Lovelace")
  fill("Billing address", "12 MG Road, Bengaluru")
}

export const everythingStored = () => Object.keys(window.localStorage).map((key) => `${key}=${window.localStorage.getItem(key)}`).join("\n")
