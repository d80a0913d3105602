import { render, screen } from "@testing-library/react"
import { beforeEach, describe, expect, it } from "vitest"
import { MemoryRouter, Route, Routes, useLocation } from "react-router"

import { useSession } from "~site-session/session-store"
import type { LoginRedirectState } from "~site/shared/login-redirect"

import { RouteGuard } from "./RouteGuard"

function LoginProbe() {
  const state = useLocation().state as LoginRedirectState | null
  return <p>login from {state ? `${state.from.pathname}${state.from.search}${state.from.hash}` : "nowhere"}</p>
}

describe("RouteGuard", () => {
  beforeEach(() => useSession.setState({ status: "loggedOut", user: null }))

  it("remembers where a visitor was going when sending them to /login", async () => {
    render(
      <MemoryRouter initialEntries={["/change-password?tab=security#form"]}>
        <Routes>
          <Route
            path="/change-password"
            element={
              <RouteGuard>
                <p>secret</p>
              </RouteGuard>
            }
          />
          <Route path="/login" element={<LoginProbe />} />
        </Routes>
      </MemoryRouter>
    )
    expect(await screen.findByText("login from /change-password?tab=security#form")).toBeTruthy()
    expect(screen.queryByText("secret")).toBeNull()
  })
})
