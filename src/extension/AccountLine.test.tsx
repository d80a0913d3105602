import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react"
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"

import { AccountLine } from "./AccountLine"
import { createFakeChrome } from "./fake-chrome.test-support"

const API = "https://api.test"
const user = { name: "Ada", email: "ada@example.com", role: "user" as const, provider: "email" as const }
let opened: string[]

beforeEach(async () => {
  opened = []
  const fake = createFakeChrome()
  vi.stubGlobal("chrome", { ...fake, tabs: { create: async ({ url }: { url: string }) => void opened.push(url) } })
  await fake.storage.local.set({ apiOrigin: API })
})
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

describe("the account line", () => {
  it("signed out, opens the site's sign-in page for the extension", async () => {
    render(<AccountLine account={{ kind: "signedOut" }} usageTestId="usage" className="" />)
    expect(screen.getByText("Not signed in: local analyses only.")).toBeTruthy()
    fireEvent.click(screen.getByRole("button", { name: "Sign in" }))
    await waitFor(() => expect(opened).toEqual([`${API}/login?source=extension`]))
  })

  it("signed in, shows the user, the plan and the month's usage", () => {
    const { rerender } = render(<AccountLine account={{ kind: "signedIn", user, usage: "3 of 10 AI requests used this month" }} usageTestId="usage" className="" />)
    expect(screen.getByTestId("usage").textContent).toBe("Ada · Free · 3 of 10 AI requests used this month")
    expect(screen.getByTestId("account-plan").textContent).toBe("Free")
    rerender(<AccountLine account={{ kind: "signedIn", user, usage: null }} usageTestId="usage" className="" />)
    expect(screen.getByTestId("usage").textContent).toBe("Ada · Free · Usage unavailable")
  })
})
