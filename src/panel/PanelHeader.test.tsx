import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react"
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"

import type { Membership } from "~core/organizations"
import type { AccountState } from "~extension/account/account"
import { saveExtensionSession } from "~extension/account/extension-session"
import { createFakeChrome } from "~extension/browser/fake-chrome.test-support"
import { brandLogoItem, brandOf, type Brand } from "~extension/account/organization-brand"
import { contrastRatio } from "~ui/contrast"

import { PanelHeader } from "./PanelHeader"

const LOGO = "data:image/png;base64,iVBORw0KGgo="
const LOGO_URL = "https://api.test/api/organizations/org-1/logo/first.png"
const acme: Membership = { id: "org-1", name: "Acme", role: "member", brand: { name: "Acme", logoUrl: LOGO_URL, accentColor: "#0a7d5a" } }
const signedIn: AccountState = { kind: "signedIn", user: { name: "Ada", email: "ada@example.com", role: "user", provider: "email", organization: acme }, usage: "3 of 10 AI requests used this month" }

/** `rgb(r, g, b)` as happy-dom computes a style, back to `#rrggbb`. */
function hexOf(color: string): string {
  if (color.startsWith("#")) return color.toLowerCase()
  const [r, g, b] = color.match(/\d+/g)!.map(Number)
  return `#${[r, g, b].map((value) => value!.toString(16).padStart(2, "0")).join("")}`
}

function renderHeader(brand: Brand | null, account: AccountState = signedIn) {
  const actions = { onCapture: vi.fn(), onRescan: vi.fn() }
  render(<PanelHeader account={account} brand={brand} capturing={false} {...actions} />)
  return { header: screen.getByTestId("panel-header"), ...actions }
}

beforeEach(() => vi.stubGlobal("chrome", createFakeChrome()))
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

describe("the side panel's header", () => {
  it("shows a member the organisation's name, logo and accent colour, with the product's name kept small", () => {
    const { header, onRescan } = renderHeader(brandOf(acme, { url: LOGO_URL, dataUrl: LOGO }))
    expect(within(header).getByTestId("brand-name").textContent).toBe("Acme")
    const logo = within(header).getByRole("img", { name: "Acme" })
    expect(logo.getAttribute("src")).toBe(LOGO)
    expect(within(header).getByTestId("brand").getAttribute("title")).toBe("Acme · Image Query AI")
    expect(hexOf(header.style.backgroundColor)).toBe("#0a7d5a")
    expect(hexOf(header.style.color)).toBe("#ffffff")
    expect(header.className).not.toContain("bg-white")
    // The buttons and the account line take the readable colour, not the product's blue and grey.
    const rescan = within(header).getByRole("button", { name: "Rescan" })
    expect(rescan.className).not.toContain("text-blue-700")
    expect(within(header).getByTestId("panel-account").className).not.toContain("text-gray-600")
    fireEvent.click(rescan)
    expect(onRescan).toHaveBeenCalled()
    expect(within(header).getByTestId("panel-usage").textContent).toBe("Ada · 3 of 10 AI requests used this month")
  })

  it("writes black on a light accent colour and white on a dark one, each past AA's 4.5:1", () => {
    for (const [accentColor, text] of [
      ["#ffd400", "#000000"],
      ["#0a7d5a", "#ffffff"],
      ["#3b82f6", "#000000"],
      ["#7c3aed", "#ffffff"]
    ] as const) {
      const { header } = renderHeader(brandOf({ ...acme, brand: { ...acme.brand, accentColor } }, null))
      expect(hexOf(header.style.color)).toBe(text)
      expect(contrastRatio(hexOf(header.style.backgroundColor), hexOf(header.style.color))).toBeGreaterThanOrEqual(4.5)
      cleanup()
    }
  })

  it("keeps the product's white header for a brand without a colour, and its mark until a logo is kept", () => {
    const { header } = renderHeader(brandOf({ ...acme, brand: { ...acme.brand, accentColor: null } }, null))
    expect(header.getAttribute("style")).toBeNull()
    expect(header.className).toContain("bg-white")
    expect(within(header).getByTestId("brand-name").textContent).toBe("Acme")
    expect(within(header).queryByTestId("brand-logo")).toBeNull()
    expect(within(header).getByRole("button", { name: "Rescan" }).className).toContain("text-blue-700")
  })

  it("is unchanged for an account in no organisation, and signed out", () => {
    for (const account of [{ ...signedIn, user: { ...signedIn.user, organization: null } }, { kind: "signedOut" } as const]) {
      const { header } = renderHeader(null, account)
      expect(header.getAttribute("style")).toBeNull()
      expect(header.className).toContain("bg-white")
      expect(within(header).getByText("Image Query AI")).toBeTruthy()
      expect(within(header).queryByTestId("brand")).toBeNull()
      expect(within(header).queryByRole("img")).toBeNull()
      expect(within(header).getByRole("button", { name: "Capture area" }).className).toContain("text-blue-700")
      expect(within(header).getByTestId("panel-account").className).toContain("text-gray-600")
      cleanup()
    }
  })
})

describe("the popup's header", () => {
  beforeEach(() => {
    // The popup asks the service for its status and the usage: unreachable here, the brand comes from storage.
    vi.stubGlobal("fetch", vi.fn(() => Promise.reject(new TypeError("Failed to fetch"))))
    Object.assign(chrome, { windows: { getCurrent: vi.fn() }, tabs: { create: vi.fn() } })
  })

  it("shows a member's brand on its colour from what is stored, offline", async () => {
    await saveExtensionSession({ user: signedIn.user, token: "t", refreshToken: "r", expiresAt: Date.now() + 3_600_000 })
    await brandLogoItem.set({ url: LOGO_URL, dataUrl: LOGO })
    const { default: Popup } = await import("../popup")
    render(<Popup />)
    const band = await screen.findByTestId("popup-brand")
    await waitFor(() => expect(within(band).getByRole("img", { name: "Acme" }).getAttribute("src")).toBe(LOGO))
    expect(within(band).getByTestId("brand-name").textContent).toBe("Acme")
    expect(hexOf(band.style.backgroundColor)).toBe("#0a7d5a")
    expect(hexOf(band.style.color)).toBe("#ffffff")
  })

  it("keeps the product's logo for a non-member", async () => {
    await saveExtensionSession({ user: { ...signedIn.user, organization: null }, token: "t", refreshToken: "r", expiresAt: Date.now() + 3_600_000 })
    const { default: Popup } = await import("../popup")
    render(<Popup />)
    await screen.findByTestId("account-name")
    expect(screen.queryByTestId("popup-brand")).toBeNull()
    expect(screen.getByText("Image Query AI")).toBeTruthy()
  })
})
