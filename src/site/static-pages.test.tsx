import { fireEvent, render, screen } from "@testing-library/react"
import { MemoryRouter, Route, Routes } from "react-router"
import { describe, expect, it } from "vitest"

import AboutPage from "./about/AboutPage"
import CookiesPage from "./legal/CookiesPage"

describe("the cookie policy", () => {
  it("links to the privacy e-mail and, opened without history, goes back home", () => {
    render(
      <MemoryRouter initialEntries={["/cookies"]}>
        <Routes>
          <Route path="/cookies" element={<CookiesPage />} />
          <Route path="/" element={<h1>Home page</h1>} />
        </Routes>
      </MemoryRouter>
    )
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("Cookie Policy")
    expect(screen.getByRole("link", { name: "privacy@imagequery.ai" }).getAttribute("href")).toBe("mailto:privacy@imagequery.ai")
    expect(document.body.textContent).toContain("30 days to 2 years")
    fireEvent.click(screen.getByRole("button", { name: "Go Back" }))
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("Home page")
  })
})

describe("the about page", () => {
  it("has mission, vision, values, team, figures and links to register and pricing", () => {
    render(
      <MemoryRouter>
        <AboutPage />
      </MemoryRouter>
    )
    for (const name of ["Our mission", "Our vision", "Our values", "Our team", "Image Query AI in numbers"]) {
      expect(screen.getByRole("heading", { name })).toBeTruthy()
    }
    expect(screen.getByRole("link", { name: "Create a free account" }).getAttribute("href")).toBe("/register")
    expect(screen.getByRole("link", { name: "See pricing" }).getAttribute("href")).toBe("/pricing")
    expect(screen.getByRole("link", { name: "support@imagequery.ai" }).getAttribute("href")).toBe("mailto:support@imagequery.ai")
  })
})
