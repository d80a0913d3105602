import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react"
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"

import { openSignIn } from "./account"
import { AccountCard, AccountLine } from "./AccountLine"
import { createFakeChrome } from "../browser/fake-chrome.test-support"

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

describe("the panel's account line", () => {
  it("signed out, opens the site's sign-in page for the extension", async () => {
    render(<AccountLine account={{ kind: "signedOut" }} />)
    expect(screen.getByText("Not signed in: local analyses only.")).toBeTruthy()
    fireEvent.click(screen.getByRole("button", { name: "Sign in" }))
    await waitFor(() => expect(opened).toEqual([`${API}/login?source=extension`]))
  })

  it("signed in, shows the user and the month's usage", () => {
    const { rerender } = render(<AccountLine account={{ kind: "signedIn", user, usage: "3 of 10 AI requests used this month" }} />)
    expect(screen.getByTestId("panel-usage").textContent).toBe("Ada · 3 of 10 AI requests used this month")
    rerender(<AccountLine account={{ kind: "signedIn", user, usage: null }} />)
    expect(screen.getByTestId("panel-usage").textContent).toBe("Ada · Usage unavailable")
  })
})

describe("the popup's account card", () => {
  it("signed in, shows the name, e-mail, plan and usage on their own lines", () => {
    render(<AccountCard account={{ kind: "signedIn", user, usage: "3 of 10 AI requests used this month" }} />)
    expect(screen.getByTestId("account-name").textContent).toBe("Ada")
    expect(screen.getByTestId("account-email").textContent).toBe("ada@example.com")
    expect(screen.getByTestId("account-plan").textContent).toBe("Free")
    expect(screen.getByTestId("account-usage").textContent).toBe("3 of 10 AI requests used this month")
  })

  it("signed out, says what signing in brings; its Sign in button opens the same page as the panel's link", async () => {
    render(<AccountCard account={{ kind: "signedOut" }} />)
    expect(screen.getByText("Not signed in. Sign in on the website to use AI features.")).toBeTruthy()
    openSignIn()
    await waitFor(() => expect(opened).toEqual([`${API}/login?source=extension`]))
  })
})
