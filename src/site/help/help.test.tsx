import { fireEvent, render, screen, within } from "@testing-library/react"
import { MemoryRouter } from "react-router"
import { describe, expect, it } from "vitest"

import HelpPage from "./HelpPage"
import { categoryCounts, filterFaq, HELP_FAQ } from "./help-content"

function renderHelp() {
  render(
    <MemoryRouter>
      <HelpPage />
    </MemoryRouter>
  )
}

const articleTitles = () =>
  within(screen.getByRole("region", { name: "Help articles" }))
    .queryAllByRole("heading", { level: 2 })
    .map((heading) => heading.textContent)

describe("the help centre's FAQ", () => {
  it("has 12 entries spread over the four categories, with their counts on the chips", () => {
    expect(HELP_FAQ).toHaveLength(12)
    expect(categoryCounts(HELP_FAQ)).toEqual({
      "Getting Started": 3,
      "Account Management": 3,
      "Security & Privacy": 3,
      "Features & Usage": 3
    })
    renderHelp()
    const chips = within(screen.getByRole("group", { name: "Categories" })).getAllByRole("button").map((chip) => chip.textContent)
    expect(chips).toEqual([
      "All (12)",
      "Getting Started (3)",
      "Account Management (3)",
      "Security & Privacy (3)",
      "Features & Usage (3)"
    ])
    expect(articleTitles()).toHaveLength(12)
  })

  it("filters by question text and by answer text, ignoring case", () => {
    expect(filterFaq(HELP_FAQ, { query: "DELETE MY ACCOUNT", category: null }).map((entry) => entry.question)).toEqual([
      "How do I delete my account?"
    ])
    // "argon2id" appears only in an answer.
    expect(filterFaq(HELP_FAQ, { query: "argon2id", category: null }).map((entry) => entry.question)).toEqual([
      "How is my password protected?"
    ])
  })

  it("combines the search with the chosen category", () => {
    renderHelp()
    fireEvent.click(screen.getByRole("button", { name: "Security & Privacy (3)" }))
    expect(screen.getByRole("button", { name: "Security & Privacy (3)" }).getAttribute("aria-pressed")).toBe("true")
    expect(articleTitles()).toHaveLength(3)
    fireEvent.change(screen.getByLabelText("Search help articles"), { target: { value: "cookies" } })
    expect(articleTitles()).toEqual(["Do you use tracking cookies or sell my data?"])
    expect(screen.getByRole("status").textContent).toBe("1 article")
  })

  it("shows No results found with Clear filters, which brings every article back", () => {
    renderHelp()
    fireEvent.click(screen.getByRole("button", { name: "Getting Started (3)" }))
    fireEvent.change(screen.getByLabelText("Search help articles"), { target: { value: "argon2id" } })
    expect(screen.getByRole("heading", { name: "No results found" })).toBeTruthy()
    fireEvent.click(screen.getByRole("button", { name: "Clear filters" }))
    expect(articleTitles()).toHaveLength(12)
    expect((screen.getByLabelText("Search help articles") as HTMLInputElement).value).toBe("")
    expect(screen.getByRole("button", { name: "All (12)" }).getAttribute("aria-pressed")).toBe("true")
  })

  it("links to support by e-mail, to pricing and to the terms", () => {
    renderHelp()
    expect(screen.getByRole("link", { name: /Email support@imagequery.ai/ }).getAttribute("href")).toBe("mailto:support@imagequery.ai")
    expect(screen.getByRole("link", { name: "Pricing" }).getAttribute("href")).toBe("/pricing")
    expect(screen.getByRole("link", { name: "Terms of Service" }).getAttribute("href")).toBe("/terms")
  })
})
