import { fireEvent, render, screen } from "@testing-library/react"
import { afterEach, describe, expect, it, vi } from "vitest"

import { InertSubscribeForm } from "./InertSubscribeForm"

afterEach(() => vi.unstubAllGlobals())

describe("InertSubscribeForm", () => {
  it("checks the address, then says that nothing was sent, and sends nothing", () => {
    const fetchSpy = vi.fn()
    vi.stubGlobal("fetch", fetchSpy)
    render(<InertSubscribeForm title="Get status updates" tone="light" notice="Nothing was sent." />)
    const address = screen.getByLabelText("E-mail address")
    fireEvent.change(address, { target: { value: "ada@" } })
    fireEvent.click(screen.getByRole("button", { name: "Subscribe" }))
    expect(screen.getByRole("status").textContent).toBe("Enter a valid e-mail address, like name@example.com.")
    fireEvent.change(address, { target: { value: " ada@example.com " } })
    fireEvent.click(screen.getByRole("button", { name: "Subscribe" }))
    expect(screen.getByRole("status").textContent).toBe("Nothing was sent.")
    expect(screen.getByRole("heading", { name: "Get status updates" })).toBeTruthy()
    expect(fetchSpy).not.toHaveBeenCalled()
  })
})
