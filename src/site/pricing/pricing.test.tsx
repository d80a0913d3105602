import { QueryClientProvider } from "@tanstack/react-query"
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react"
import { MemoryRouter } from "react-router"
import { afterEach, beforeEach, describe, expect, it } from "vitest"

import { teardownSession, useSession } from "~site-session/session-store"
import type { BillingMode, Subscription } from "~core/billing/billing"
import { PLANS, type PlanId } from "~core/billing/plans"
import { SESSION_STORAGE_KEYS, type User } from "~core/user"

import { answer, createFakeApi, resetSiteForTest } from "../fake-api-server"
import { createQueryClient } from "../query-client"
import PricingPage from "./PricingPage"
import { currentPlanIdOf, planAction, priceView } from "./pricing"

const recordOn = (plan: PlanId, status: Subscription["status"] = "active"): Subscription => ({
  plan,
  status,
  interval: plan === "free" ? null : "month",
  currentPeriodEnd: plan === "free" ? null : "2026-12-23T12:00:00.000Z",
  cancelAtPeriodEnd: false,
  trialEnd: null,
  scheduledPlan: null,
  trialAvailable: plan === "free",
  portalAvailable: false,
  mode: "test"
})

/** The server's record: by default the plan the stored user shows. */
let record: Subscription = recordOn("free")
/** How the server takes payments (GET /api/billing/config). */
let mode: BillingMode = "test"
let server: ReturnType<typeof createFakeApi>

const userOn = (plan: PlanId | null): User => ({
  name: "Ada",
  email: "ada@example.com",
  role: "user",
  provider: "email",
  ...(plan ? { subscription: { plan: { id: plan, name: plan }, status: "active" } } : {})
})

function renderPricing(user: User | null, serverRecord?: Subscription) {
  record = serverRecord ?? recordOn(user?.subscription?.plan.id ?? "free")
  if (user) {
    window.localStorage.setItem(SESSION_STORAGE_KEYS.authToken, "access-0")
    window.localStorage.setItem(SESSION_STORAGE_KEYS.user, JSON.stringify(user))
  }
  useSession.setState({ status: user ? "loggedIn" : "loggedOut", user })
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter>
        <PricingPage />
      </MemoryRouter>
    </QueryClientProvider>
  )
}

function card(name: string) {
  return screen.getByRole("listitem", { name })
}

function buttonLabels() {
  return Object.fromEntries(
    ["Free", "Pro", "Enterprise"].map((name) => {
      const control = card(name).querySelector(`a[aria-label$=": ${name}"], button[aria-label$=": ${name}"]`)!
      return [name, { text: control.textContent, disabled: control.hasAttribute("disabled") }]
    })
  )
}

beforeEach(() => {
  window.localStorage.clear()
  mode = "test"
  server = createFakeApi([
    ["GET /api/billing/config", () => answer({ mode, trialDays: 14 })],
    ["GET /api/billing/subscription", () => answer(record)],
    ["GET /api/auth/profile", () => answer({ user: { ...userOn(record.plan), subscription: { plan: { id: record.plan, name: record.plan }, status: record.status } } })]
  ])
  resetSiteForTest(server.fetch)
  useSession.setState({ status: "loggedOut", user: null })
})
afterEach(() => teardownSession())

describe("the pricing page's plan buttons", () => {
  it("offers Select Plan on every plan to an anonymous visitor", () => {
    renderPricing(null)
    // The extension's questions and translations answered by the browser's own model are not counted.
    expect(card("Free").textContent).toContain("Unlimited AI on your device where your browser supports it")
    expect(buttonLabels()).toEqual({
      Free: { text: "Select Plan", disabled: false },
      Pro: { text: "Select Plan", disabled: false },
      Enterprise: { text: "Select Plan", disabled: false }
    })
  })

  it.each([
    ["free", { Free: "Current Plan", Pro: "Upgrade", Enterprise: "Upgrade" }],
    ["pro", { Free: "Downgrade", Pro: "Current Plan", Enterprise: "Upgrade" }],
    ["enterprise", { Free: "Downgrade", Pro: "Downgrade", Enterprise: "Create your organisation" }]
  ] as const)("labels the buttons by rank for a %s user, the current one disabled but Enterprise's", (plan, expected) => {
    renderPricing(userOn(plan))
    const labels = buttonLabels()
    for (const [name, text] of Object.entries(expected)) {
      expect(labels[name]).toEqual({ text, disabled: text === "Current Plan" })
    }
  })

  it("leads an Enterprise subscriber to /organization: to create the organisation, or to manage it once made", async () => {
    renderPricing(userOn("enterprise"))
    const create = within(card("Enterprise")).getByRole("link", { name: "Create your organisation: Enterprise" })
    expect(create.getAttribute("href")).toBe("/organization")
    await waitFor(() => expect(server.calls("GET /api/organizations/current")).toHaveLength(1))
    cleanup()

    server.on("GET /api/organizations/current", () =>
      answer({ id: "org-1", name: "Acme", role: "owner", members: [], pool: { limit: null, used: 0 }, brand: { name: "Acme", logoUrl: null, accentColor: null }, subscriberId: "user-1", requireMfa: false })
    )
    renderPricing(userOn("enterprise"))
    const manage = await within(card("Enterprise")).findByRole("link", { name: "Manage your organisation: Enterprise" })
    expect(manage.getAttribute("href")).toBe("/organization")
  })

  it("asks a Free or Pro account nothing of organisations", async () => {
    renderPricing(userOn("pro"))
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(server.calls("GET /api/organizations/current")).toHaveLength(0)
  })

  it("treats a signed-in user without a subscription record as Free", () => {
    renderPricing(userOn(null))
    expect(buttonLabels().Free).toEqual({ text: "Current Plan", disabled: true })
  })

  it("follows the server's record over the stored user, and refreshes the stored user", async () => {
    renderPricing(userOn("free"), recordOn("pro"))
    await waitFor(() => expect(buttonLabels().Pro).toEqual({ text: "Current Plan", disabled: true }))
    expect(buttonLabels()).toMatchObject({ Free: { text: "Downgrade" }, Enterprise: { text: "Upgrade" } })
    await waitFor(() => expect(useSession.getState().user?.subscription?.plan.id).toBe("pro"))
    expect(server.calls("GET /api/auth/profile")).toHaveLength(1)
  })

  it("treats a cancelled subscription as Free", async () => {
    expect(currentPlanIdOf(userOn("pro"), recordOn("pro", "canceled"))).toBe("free")
    expect(currentPlanIdOf({ ...userOn("pro"), subscription: { plan: { id: "pro", name: "Pro" }, status: "canceled" } })).toBe("free")
    expect(currentPlanIdOf(userOn("pro"), recordOn("pro", "past_due"))).toBe("pro")
    renderPricing(userOn("enterprise"), recordOn("enterprise", "canceled"))
    await waitFor(() => expect(buttonLabels().Free).toEqual({ text: "Current Plan", disabled: true }))
    expect(server.calls("GET /api/billing/subscription")).toHaveLength(1)
  })

  it("asks nothing of the billing record for an anonymous visitor", async () => {
    renderPricing(null)
    await screen.findByRole("link", { name: "Select Plan: Pro" })
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(server.calls("GET /api/billing/subscription")).toHaveLength(0)
  })

  it("leads paid plans to the payment form with the chosen billing", () => {
    const pro = PLANS[1]!
    expect(planAction(pro, null, "annual").to).toBe("/payment?plan=pro&annual=true")
    expect(planAction(pro, "free", "monthly").to).toBe("/payment?plan=pro&annual=false")
    expect(planAction(PLANS[0]!, null, "monthly").to).toBe("/register")
  })
})

describe("annual billing", () => {
  it("shows the annual price divided by 12 and rounded, billed yearly, with 20% savings", () => {
    renderPricing(null)
    expect(within(card("Pro")).getByText("$19")).toBeTruthy()
    expect(within(card("Enterprise")).getByText("$99")).toBeTruthy()
    fireEvent.click(screen.getByRole("button", { name: "Annual" }))
    expect(screen.getByRole("button", { name: "Annual" }).getAttribute("aria-pressed")).toBe("true")
    // 190 / 12 = 15.83 → 16; 990 / 12 = 82.5 → 83
    expect(within(card("Pro")).getByText("$16")).toBeTruthy()
    expect(within(card("Pro")).getByText("$190 billed yearly")).toBeTruthy()
    expect(within(card("Enterprise")).getByText("$83")).toBeTruthy()
    expect(within(card("Enterprise")).getByText("$990 billed yearly")).toBeTruthy()
    expect(within(card("Pro")).getByText("Save 20%")).toBeTruthy()
    expect(within(card("Free")).queryByText("Save 20%")).toBeNull()
    expect(within(card("Pro")).getByRole("link", { name: "Select Plan: Pro" }).getAttribute("href")).toBe("/payment?plan=pro&annual=true")
  })

  it("computes the views from the plans", () => {
    expect(priceView(PLANS[1]!, "monthly")).toEqual({ perMonth: 19, note: "Billed monthly" })
    expect(priceView(PLANS[2]!, "annual")).toEqual({ perMonth: 83, note: "$990 billed yearly" })
    expect(priceView(PLANS[0]!, "annual")).toEqual({ perMonth: 0, note: "Free forever" })
  })

  it("marks Pro as the popular plan", () => {
    renderPricing(null)
    expect(within(card("Pro")).getByText("Most popular")).toBeTruthy()
    expect(within(card("Free")).queryByText("Most popular")).toBeNull()
  })
})

/** The trial's answer in the FAQ, and the line under the page's trial button, once the server's mode has arrived. */
async function trialTexts() {
  const faq = screen.getByRole("heading", { name: "Frequently asked questions" }).parentElement!
  const trial = within(faq).getByRole("button", { name: "Is there a free trial?" })
  const answer = document.getElementById(trial.getAttribute("aria-controls")!)!
  const band = screen.getByRole("heading", { name: "Try every Pro feature free for 14 days" }).parentElement!
  await waitFor(() => expect(server.calls("GET /api/billing/config")).toHaveLength(1))
  await waitFor(() => expect(answer.textContent).toMatch(/card/))
  return { answer: answer.textContent!, band: band.textContent!, button: within(band).getByRole("link", { name: "Start your free trial" }) }
}

describe("what the trial asks for, by how the server takes payments", () => {
  it("in test mode: the spec's words, no card required", async () => {
    renderPricing(null)
    const { answer, band } = await trialTexts()
    expect(answer).toBe("Yes. Every paid plan starts with a 14-day free trial, and no card is required to start it. You keep all your settings whether you stay or go back to Free.")
    expect(band).toMatch(/^Try every Pro feature free for 14 days\s*No card required\. Need more seats/)
  })

  it("in Stripe mode: a card is needed, nothing is charged before the trial ends, and it can be cancelled before; never 'no card'", async () => {
    mode = "stripe"
    renderPricing(null)
    const { answer, band, button } = await trialTexts()
    for (const text of [answer, band]) {
      expect(text).toMatch(/A card is needed to start it\. Nothing is charged before the trial ends, and you can cancel any time before then\./)
      expect(text).not.toMatch(/no card/i)
    }
    expect(answer).toMatch(/^Yes\. Every paid plan starts with a 14-day free trial\./)
    expect(button.getAttribute("href")).toBe("/register")
  })
})

describe("the pricing FAQ", () => {
  it("has four questions that open and close their answers", async () => {
    renderPricing(null)
    const faq = screen.getByRole("heading", { name: "Frequently asked questions" }).parentElement!
    const questions = within(faq).getAllByRole("button")
    expect(questions).toHaveLength(4)
    const trial = within(faq).getByRole("button", { name: "Is there a free trial?" })
    const panel = document.getElementById(trial.getAttribute("aria-controls")!)!
    expect(panel.hidden).toBe(true)
    fireEvent.click(trial)
    expect(trial.getAttribute("aria-expanded")).toBe("true")
    expect(panel.hidden).toBe(false)
    await waitFor(() => expect(panel.textContent).toMatch(/14-day free trial, and no card is required/))
    fireEvent.click(trial)
    expect(panel.hidden).toBe(true)
    expect(faq.textContent).toMatch(/30-day money-back guarantee/)
    expect(faq.textContent).toMatch(/within 24 hours/)
  })

  it("moves between the questions with the arrow keys, Home and End", () => {
    renderPricing(null)
    const faq = screen.getByRole("heading", { name: "Frequently asked questions" }).parentElement!
    const [first, second, , last] = within(faq).getAllByRole("button")
    first!.focus()
    fireEvent.keyDown(first!, { key: "ArrowDown" })
    expect(document.activeElement).toBe(second)
    fireEvent.keyDown(second!, { key: "End" })
    expect(document.activeElement).toBe(last)
    fireEvent.keyDown(last!, { key: "Home" })
    expect(document.activeElement).toBe(first)
  })
})
