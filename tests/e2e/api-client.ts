import { TEST_CARD_SUCCEEDS } from "~core/billing/billing"

import { verificationCode } from "../outbox"
import type { RunningServer } from "./server"

export interface ApiAnswer {
  status: number
  body: { data?: Record<string, unknown>; error?: { code: string; message: string } }
}

export type Api = (pathname: string, init?: { method?: string; token?: string; body?: unknown }) => Promise<ApiAnswer>

/** Calls the running server's API as a script would: JSON in, the wrapper out. */
export function apiOf(server: RunningServer): Api {
  return async (pathname, init = {}) => {
    const response = await fetch(`${server.url}${pathname}`, {
      method: init.method ?? "GET",
      headers: { ...(init.token ? { authorization: `Bearer ${init.token}` } : {}), ...(init.body ? { "content-type": "application/json" } : {}) },
      ...(init.body ? { body: JSON.stringify(init.body) } : {})
    })
    return { status: response.status, body: (await response.json()) as ApiAnswer["body"] }
  }
}

/**
 * Registers an account and follows its verification e-mail through the API: the browser tests that are not about
 * signing up start from a verified account. Throws when a step is refused.
 */
export async function registerVerifiedAccount(server: RunningServer, account: { email: string; password: string; name: string }): Promise<void> {
  const api = apiOf(server)
  const registered = await api("/api/auth/register", { method: "POST", body: { ...account, termsAccepted: true, privacyPolicyAccepted: true } })
  if (registered.status !== 201) throw new Error(`Registration refused: ${registered.status} ${JSON.stringify(registered.body)}`)
  const verified = await api("/api/auth/verify-email", { method: "POST", body: { oobCode: await verificationCode(server.dataDir, account.email) } })
  if (verified.status !== 200) throw new Error(`Verification refused: ${verified.status} ${JSON.stringify(verified.body)}`)
}

/**
 * Buys a plan for a signed-in account through the billing test mode, as a script would (the billing e2e walks the
 * checkout page itself): the tests that start from a paying customer. Throws when the payment is refused.
 */
export async function payInTestMode(server: RunningServer, token: string, account: { email: string; name: string }, planId: "pro" | "enterprise"): Promise<void> {
  const card = { cardNumber: TEST_CARD_SUCCEEDS, expiryMonth: "12", expiryYear: String(new Date().getFullYear() + 2), cvc: "123", cardholderName: account.name }
  const body = { planId, annual: false, ...card, email: account.email, billingAddress: "1 Main Street", country: "US" }
  const paid = await apiOf(server)("/api/billing/test-payment", { method: "POST", token, body })
  if (paid.status >= 300) throw new Error(`Payment refused: ${paid.status} ${JSON.stringify(paid.body)}`)
}
