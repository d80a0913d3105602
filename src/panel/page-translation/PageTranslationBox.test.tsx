import { cleanup, fireEvent, render, screen } from "@testing-library/react"
import { useState } from "react"
import { afterEach, describe, expect, it, vi } from "vitest"

import { PageTranslationBox, type PageTranslationBoxProps } from "./PageTranslationBox"
import type { TabTranslationView } from "./tab-translation"

afterEach(cleanup)

const OFF: TabTranslationView = { on: false, showing: true, status: "done", done: 0, total: 0 }

const defaults = (): PageTranslationBoxProps => ({
  view: OFF,
  language: "fr",
  onDevice: null,
  setLanguage: vi.fn(),
  origin: "https://manga.example",
  always: false,
  setAlways: vi.fn(),
  toggle: vi.fn(),
  turnOff: vi.fn(),
  stop: vi.fn(),
  resume: vi.fn(),
  onSignIn: vi.fn()
})

function box(overrides: Partial<PageTranslationBoxProps> = {}) {
  const props = { ...defaults(), ...overrides }
  render(<PageTranslationBox {...props} />)
  return props
}

/** The box over a mode that follows the command as the panel's does: on, then originals and back. */
function Toggling() {
  const [view, setView] = useState(OFF)
  const toggle = () => setView((now) => (now.on ? { ...now, showing: !now.showing } : { ...now, on: true, status: "translating", total: 4 }))
  return <PageTranslationBox {...defaults()} view={view} toggle={toggle} />
}

const toggle = () => screen.getByRole("button", { name: "Translate images on this page" })

describe("the Images section's Translate images on this page", () => {
  it("is a toggle button, pressed while the page shows its images translated", () => {
    render(<Toggling />)
    expect(toggle().getAttribute("aria-pressed")).toBe("false")
    fireEvent.click(toggle())
    expect(toggle().getAttribute("aria-pressed")).toBe("true")
    expect(screen.getByTestId("page-translation-status").textContent).toBe("Translating images: 0 of 4")
    // Again: the originals are shown.
    fireEvent.click(toggle())
    expect(toggle().getAttribute("aria-pressed")).toBe("false")
    expect(screen.getByTestId("page-translation-status").textContent).toContain("Showing the original images")
    fireEvent.click(toggle())
    expect(toggle().getAttribute("aria-pressed")).toBe("true")
  })

  it("chooses the language, and Always translate images on this site next to the command", () => {
    const props = box()
    fireEvent.change(screen.getByLabelText("Into"), { target: { value: "ja" } })
    expect(props.setLanguage).toHaveBeenCalledWith("ja")
    const always = screen.getByRole("checkbox", { name: "Always translate images on this site" })
    expect((always as HTMLInputElement).checked).toBe(false)
    fireEvent.click(always)
    expect(props.setAlways).toHaveBeenCalledWith(true)
  })

  it("offers no Always on a page that is not a web site", () => {
    box({ origin: null })
    expect(screen.queryByRole("checkbox", { name: "Always translate images on this site" })).toBeNull()
  })

  it("says how far it has come, with Stop while it translates and Continue after", () => {
    const props = box({ view: { on: true, showing: true, status: "translating", done: 3, total: 12 } })
    expect(screen.getByTestId("page-translation-status").textContent).toBe("Translating images: 3 of 12")
    fireEvent.click(screen.getByRole("button", { name: "Stop" }))
    expect(props.stop).toHaveBeenCalled()
    fireEvent.click(screen.getByRole("button", { name: "Turn off" }))
    expect(props.turnOff).toHaveBeenCalled()
    cleanup()
    const stopped = box({ view: { on: true, showing: true, status: "stopped", done: 3, total: 12 } })
    expect(screen.getByTestId("page-translation-status").textContent).toBe("Stopped: 3 of 12 images translated.")
    fireEvent.click(screen.getByRole("button", { name: "Continue" }))
    expect(stopped.resume).toHaveBeenCalled()
  })

  it("says why when the quota is spent, with the Upgrade link, and offers to sign in when signed out", () => {
    box({ view: { on: true, showing: true, status: "quota", done: 2, total: 5, message: "You have used all 10 AI requests of your plan this month.", upgradeUrl: "https://iqa.example/pricing" } })
    expect(screen.getByRole("alert").textContent).toContain("You have used all 10 AI requests of your plan this month.")
    expect(screen.getByRole("link", { name: "Upgrade" }).getAttribute("href")).toBe("https://iqa.example/pricing")
    cleanup()
    const props = box({ view: { on: true, showing: true, status: "error", done: 0, total: 5, message: "Sign in to Image Query AI to translate the images on this page." } })
    fireEvent.click(screen.getByRole("button", { name: "Sign in" }))
    expect(props.onSignIn).toHaveBeenCalled()
    fireEvent.click(screen.getByRole("button", { name: "Try again" }))
    expect(props.resume).toHaveBeenCalled()
  })
})

describe("what translating the page costs", () => {
  it("says what is sent and counted, or, when the browser's translator takes it, that nothing is", () => {
    box()
    expect(screen.getByTestId("page-translation-cost").textContent).toMatch(/only the text is sent, to .*Each image translated counts as one AI request/)
    cleanup()
    box({ onDevice: { fallback: true } })
    expect(screen.getByTestId("page-translation-cost").textContent).toMatch(/^Each image’s text is read and translated on this computer by the browser’s own translator: nothing is sent and nothing is counted\..* Text in a language the browser cannot translate goes to /)
    cleanup()
    box({ onDevice: { fallback: false } })
    expect(screen.getByTestId("page-translation-cost").textContent).not.toContain("cannot translate")
  })
})
