import { fireEvent, render, screen, waitFor, within } from "@testing-library/react"
import { useState, type ReactNode } from "react"
import { MemoryRouter, Route, Routes } from "react-router"
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"

import { COMPANY } from "~core/company"
import { formatLegalDate, LegalDocument } from "~site/shared/legal/LegalDocument"
import { PRIVACY_POLICY, TERMS_OF_SERVICE, type LegalDocumentContent } from "~site/shared/legal/legal-content"
import { TermsModal } from "~site/shared/legal/TermsModal"

import PrivacyPage from "./PrivacyPage"
import TermsPage from "./TermsPage"

const pages = [
  ["/terms", TermsPage, TERMS_OF_SERVICE],
  ["/privacy", PrivacyPage, PRIVACY_POLICY]
] as const

function renderPage(path: string, Page: () => ReactNode, entries: string[] = [path]) {
  return render(
    <MemoryRouter initialEntries={entries} initialIndex={entries.length - 1}>
      <main>
        <Routes>
          <Route path="/" element={<h1>Home page</h1>} />
          <Route path="/pricing" element={<h1>Pricing page</h1>} />
          <Route path={path} element={<Page />} />
        </Routes>
      </main>
    </MemoryRouter>
  )
}

const allText = (content: LegalDocumentContent) =>
  [content.intro, ...content.sections.flatMap((section) => [section.title, section.paragraph, ...(section.items ?? [])])].join("\n")

describe("legal content", () => {
  it.each([TERMS_OF_SERVICE, PRIVACY_POLICY])("$title has 12 to 16 sections, each with a title and a paragraph", (content) => {
    expect(content.lastUpdated).toBe("2026-11-22")
    expect(content.sections.length).toBeGreaterThanOrEqual(12)
    expect(content.sections.length).toBeLessThanOrEqual(16)
    const titles = content.sections.map((section) => section.title)
    expect(new Set(titles).size).toBe(titles.length)
    for (const section of content.sections) {
      expect(section.title.trim()).not.toBe("")
      expect(section.paragraph.trim()).not.toBe("")
      for (const item of section.items ?? []) expect(item.trim()).not.toBe("")
    }
  })

  it("contains no placeholder text and no e-mail address other than the company's", () => {
    const companyEmails = new Set<string>(Object.values(COMPANY.contact).flatMap((entry) => ("email" in entry ? [entry.email] : [])))
    for (const content of [TERMS_OF_SERVICE, PRIVACY_POLICY]) {
      const text = allText(content)
      expect(text).not.toMatch(/lorem|ipsum|\bTODO\b|\bTBD\b|\[company\]/i)
      expect(text).not.toMatch(/\bundefined\b|\bNaN\b|\[object Object\]/)
      for (const email of text.match(/[\w.+-]+@[\w-]+\.[\w.]+\w/g) ?? []) expect(companyEmails.has(email)).toBe(true)
    }
  })

  it("takes the company's contact details from COMPANY", () => {
    const terms = allText(TERMS_OF_SERVICE)
    const privacy = allText(PRIVACY_POLICY)
    expect(terms).toContain(COMPANY.legalName)
    expect(terms).toContain(COMPANY.contact.legal.email)
    expect(terms).toContain(COMPANY.contact.support.email)
    expect(terms).toContain(`${COMPANY.contact.address.city}, ${COMPANY.contact.address.region}`)
    expect(privacy).toContain(COMPANY.legalName)
    expect(privacy).toContain(COMPANY.contact.privacy.email)
    expect(privacy).toContain(COMPANY.contact.address.postalCode)
  })

  it("states the plan quotas, trial, guarantee and governing law", () => {
    const terms = allText(TERMS_OF_SERVICE)
    expect(terms).toContain("up to 10 AI requests")
    expect(terms).toContain("US$19 per month or US$190 per year")
    expect(terms).toContain("US$99 per month or US$990 per year")
    expect(terms).toContain("14 days")
    expect(terms).toContain("30-day money-back guarantee")
    expect(terms).toContain("governed by the laws of India")
  })

  it("says what never leaves the browser and how credentials are stored", () => {
    const privacy = allText(PRIVACY_POLICY)
    expect(privacy).toMatch(/never leave your browser/)
    expect(privacy).toMatch(/only when you ask a question/)
    expect(privacy).toContain("argon2id")
    expect(privacy).toContain("Digital Personal Data Protection Act, 2023")
    expect(privacy).toContain("GDPR")
    for (const key of ["authToken", "refreshToken", "user"]) expect(privacy).toContain(`"${key}"`)
  })

  it("formats the last-updated date as a calendar date", () => {
    expect(formatLegalDate("2026-11-22")).toBe("22 November 2026")
    expect(formatLegalDate("not a date")).toBe("not a date")
  })
})

describe.each(pages)("the %s page", (path, Page, content) => {
  beforeEach(() => {
    vi.spyOn(window.history, "length", "get").mockReturnValue(2)
  })
  afterEach(() => {
    vi.restoreAllMocks()
  })

  it("renders its level-1 heading inside <main>, the date, and every section title", () => {
    renderPage(path, Page)
    const main = screen.getByRole("main")
    expect(within(main).getByRole("heading", { level: 1, name: content.title })).toBeTruthy()
    expect(within(main).getAllByRole("heading", { level: 1 })).toHaveLength(1)
    for (const section of content.sections) {
      expect(within(main).getByRole("heading", { level: 2, name: section.title })).toBeTruthy()
    }
    const time = document.querySelector("time")
    expect(time?.getAttribute("datetime")).toBe("2026-11-22")
    expect(time?.textContent).toBe("22 November 2026")
  })

  it("sets the document title", () => {
    renderPage(path, Page)
    expect(document.querySelector("title")?.textContent).toBe(`${content.title} · ${COMPANY.displayName}`)
  })

  it("has a table of contents of buttons that scroll to the sections without touching the URL", () => {
    const scrollIntoView = vi.spyOn(Element.prototype, "scrollIntoView").mockImplementation(() => {})
    renderPage(path, Page)
    const toc = screen.getByRole("navigation", { name: "Contents" })
    expect(toc.querySelector("a")).toBeNull()
    const buttons = within(toc).getAllByRole("button")
    expect(buttons.map((button) => button.textContent)).toEqual(content.sections.map((section) => section.title))
    const last = content.sections.at(-1)!
    fireEvent.click(within(toc).getByRole("button", { name: last.title }))
    expect(scrollIntoView).toHaveBeenCalledTimes(1)
    const heading = screen.getByRole("heading", { level: 2, name: last.title })
    expect(scrollIntoView.mock.contexts[0]).toBe(heading)
    expect(document.activeElement).toBe(heading)
    expect(window.location.hash).toBe("")
  })

  it("Go Back returns to the previous page", async () => {
    renderPage(path, Page, ["/pricing", path])
    fireEvent.click(screen.getByRole("button", { name: "Go Back" }))
    expect(await screen.findByRole("heading", { level: 1, name: "Pricing page" })).toBeTruthy()
  })

  it("Go Back goes home when there is no earlier page", async () => {
    vi.spyOn(window.history, "length", "get").mockReturnValue(1)
    renderPage(path, Page)
    fireEvent.click(screen.getByRole("button", { name: "Go Back" }))
    expect(await screen.findByRole("heading", { level: 1, name: "Home page" })).toBeTruthy()
  })
})

describe("the privacy policy", () => {
  it("excludes children under 13", () => {
    renderPage("/privacy", PrivacyPage)
    const heading = screen.getByRole("heading", { level: 2, name: "Children's privacy" })
    const section = heading.closest("section")!
    expect(section.textContent).toMatch(/not for children under 13/)
    expect(section.textContent).toMatch(/do not knowingly collect personal data from children under 13/)
  })

  it("gives the privacy e-mail address from COMPANY in its contact section", () => {
    renderPage("/privacy", PrivacyPage)
    const section = screen.getByRole("heading", { level: 2, name: "Contact and grievances" }).closest("section")!
    expect(section.textContent).toContain(COMPANY.contact.privacy.email)
    expect(section.textContent).toContain(COMPANY.contact.address.city)
  })
})

describe("the terms of service", () => {
  it("gives the legal and support e-mail addresses from COMPANY in its contact section", () => {
    renderPage("/terms", TermsPage)
    const section = screen.getByRole("heading", { level: 2, name: "Contact us" }).closest("section")!
    expect(section.textContent).toContain(COMPANY.contact.legal.email)
    expect(section.textContent).toContain(COMPANY.contact.support.email)
  })
})

describe("LegalDocument in a modal", () => {
  it("starts at the given heading level and has no table of contents", () => {
    render(<LegalDocument document={TERMS_OF_SERVICE} variant="modal" headingLevel={3} />)
    expect(screen.queryByRole("heading", { level: 1 })).toBeNull()
    expect(screen.getByRole("heading", { level: 3, name: "Terms of Service" })).toBeTruthy()
    expect(screen.getAllByRole("heading", { level: 4 })).toHaveLength(TERMS_OF_SERVICE.sections.length)
    expect(screen.queryByRole("navigation")).toBeNull()
    expect(screen.queryByRole("button")).toBeNull()
    expect(screen.getByText("22 November 2026")).toBeTruthy()
  })
})

describe("TermsModal", () => {
  const agreement = "I have read and agree to the Terms of Service and Privacy Policy"

  function renderModal(props: { busy?: boolean } = {}) {
    const onAccept = vi.fn()
    const onDecline = vi.fn()
    render(<TermsModal open onAccept={onAccept} onDecline={onDecline} {...props} />)
    return { onAccept, onDecline, dialog: screen.getByRole("dialog", { name: "Terms of Service and Privacy Policy" }) }
  }

  it("is a dialog with an accessible name and description", () => {
    const { dialog } = renderModal()
    const describedBy = dialog.getAttribute("aria-describedby")
    expect(describedBy).toBeTruthy()
    expect(document.getElementById(describedBy!)?.textContent).toMatch(/read and accept our Terms of Service and Privacy Policy/)
  })

  it("renders nothing while closed", () => {
    render(<TermsModal open={false} onAccept={vi.fn()} onDecline={vi.fn()} />)
    expect(screen.queryByRole("dialog")).toBeNull()
  })

  it("shows both documents, one per tab, switching by click and by arrow key", () => {
    const { dialog } = renderModal()
    const termsTab = within(dialog).getByRole("tab", { name: "Terms of Service" })
    const privacyTab = within(dialog).getByRole("tab", { name: "Privacy Policy" })
    expect(termsTab.getAttribute("aria-selected")).toBe("true")
    expect(within(dialog).getByRole("tabpanel", { name: "Terms of Service" })).toBeTruthy()
    expect(within(dialog).getByRole("heading", { level: 4, name: "Acceptable use" })).toBeTruthy()

    fireEvent.click(privacyTab)
    expect(privacyTab.getAttribute("aria-selected")).toBe("true")
    const panel = within(dialog).getByRole("tabpanel", { name: "Privacy Policy" })
    expect(within(panel).getByRole("heading", { level: 4, name: "Children's privacy" })).toBeTruthy()

    fireEvent.keyDown(privacyTab, { key: "ArrowLeft" })
    expect(termsTab.getAttribute("aria-selected")).toBe("true")
    expect(document.activeElement).toBe(termsTab)
    fireEvent.keyDown(termsTab, { key: "End" })
    expect(privacyTab.getAttribute("aria-selected")).toBe("true")
  })

  it("enables Accept and continue only once the agreement is ticked, then calls onAccept", () => {
    const { onAccept, onDecline } = renderModal()
    const accept = screen.getByRole<HTMLButtonElement>("button", { name: "Accept and continue" })
    expect(accept.disabled).toBe(true)
    fireEvent.click(accept)
    expect(onAccept).not.toHaveBeenCalled()

    const checkbox = screen.getByRole<HTMLInputElement>("checkbox", { name: agreement })
    fireEvent.click(checkbox)
    expect(checkbox.checked).toBe(true)
    expect(accept.disabled).toBe(false)
    fireEvent.click(accept)
    expect(onAccept).toHaveBeenCalledTimes(1)
    expect(onDecline).not.toHaveBeenCalled()

    fireEvent.click(checkbox)
    expect(accept.disabled).toBe(true)
  })

  it("Cancel calls onDecline", () => {
    const { onAccept, onDecline } = renderModal()
    fireEvent.click(screen.getByRole("button", { name: "Cancel" }))
    expect(onDecline).toHaveBeenCalledTimes(1)
    expect(onAccept).not.toHaveBeenCalled()
  })

  it("Escape calls onDecline", () => {
    const { dialog, onDecline } = renderModal()
    fireEvent.keyDown(dialog, { key: "Escape" })
    expect(onDecline).toHaveBeenCalledTimes(1)
  })

  it("a click on the overlay calls onDecline", async () => {
    const { onDecline } = renderModal()
    // Radix listens for outside pointer-downs from the next tick on.
    await new Promise((resolve) => setTimeout(resolve, 0))
    const overlay = document.querySelector("[data-terms-modal-overlay]")
    expect(overlay).not.toBeNull()
    // The whole click, as a browser sends it: Radix may wait for the click before dismissing.
    fireEvent.pointerDown(overlay!)
    fireEvent.mouseDown(overlay!)
    fireEvent.pointerUp(overlay!)
    fireEvent.mouseUp(overlay!)
    fireEvent.click(overlay!)
    await waitFor(() => expect(onDecline).toHaveBeenCalledTimes(1))
  })

  it("moves focus into the dialog", () => {
    const { dialog } = renderModal()
    expect(dialog.contains(document.activeElement)).toBe(true)
  })

  it("while busy, disables its controls and cannot be dismissed", () => {
    const { onAccept, onDecline, dialog } = renderModal({ busy: true })
    expect(screen.getByRole<HTMLButtonElement>("button", { name: "Accept and continue" }).disabled).toBe(true)
    expect(screen.getByRole<HTMLButtonElement>("button", { name: "Cancel" }).disabled).toBe(true)
    expect(screen.getByRole<HTMLInputElement>("checkbox", { name: agreement }).disabled).toBe(true)
    fireEvent.keyDown(dialog, { key: "Escape" })
    expect(onDecline).not.toHaveBeenCalled()
    expect(onAccept).not.toHaveBeenCalled()
  })

  it("starts unticked again each time it opens", () => {
    function Harness() {
      const [open, setOpen] = useState(true)
      return (
        <>
          <button type="button" onClick={() => setOpen(true)}>
            Open terms
          </button>
          <TermsModal open={open} onAccept={vi.fn()} onDecline={() => setOpen(false)} />
        </>
      )
    }
    render(<Harness />)
    fireEvent.click(screen.getByRole("checkbox", { name: agreement }))
    fireEvent.click(screen.getByRole("button", { name: "Cancel" }))
    expect(screen.queryByRole("dialog")).toBeNull()
    fireEvent.click(screen.getByRole("button", { name: "Open terms" }))
    expect(screen.getByRole<HTMLInputElement>("checkbox", { name: agreement }).checked).toBe(false)
  })
})
