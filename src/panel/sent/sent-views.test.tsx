import { act, fireEvent, render, screen, within } from "@testing-library/react"
import { describe, expect, it } from "vitest"

import { installFakeChromeForEachTest } from "~extension/browser/fake-chrome.test-support"
import { recordSent, sentLedgerItem, setSentFromPage, type SentEntry } from "~extension/account/sent-ledger"

import { SendNotice, sendNoticeText } from "./SendNotice"
import { SentLedgerSection, sentSizeText } from "./SentLedgerSection"

const fakeChrome = installFakeChromeForEachTest()

const TRANSLATE = { method: "POST", path: "/api/analyze/translate", json: { text: "Ausfahrt freihalten" } } as const

describe("Sent from this device in Settings", () => {
  it("says in plain words that nothing was sent", async () => {
    render(<SentLedgerSection />)
    expect(await screen.findByText(/Nothing sent in the last 30 days/)).toBeTruthy()
    expect(screen.queryByRole("button", { name: "Clear" })).toBeNull()
  })

  it("lists each request newest first with its kind, size and page, and follows new ones", async () => {
    const now = Date.now()
    const entries: SentEntry[] = [
      { at: now - 60_000, kind: "question", host: "photos.example", imageBytes: 120_400, textChars: 34 },
      { at: now - 120_000, kind: "signIn", host: null }
    ]
    await sentLedgerItem.set(entries)
    render(<SentLedgerSection />)
    /** Each row's "What was sent" (its lines) and page. */
    const rows = async () =>
      (await screen.findAllByRole("row")).slice(1).map((row) => {
        const [, what, page] = within(row).getAllByRole("cell")
        return [[...what!.children].map((line) => line.textContent).join(" / "), page!.textContent]
      })
    expect(await rows()).toEqual([
      ["Question / 120 KB image + 34 characters", "photos.example"],
      ["Sign-in / No content", "No page"]
    ])
    setSentFromPage("https://news.example/a")
    await act(() => recordSent(TRANSLATE))
    expect((await rows())[0]).toEqual(["Translation / 19 characters", "news.example"])
    setSentFromPage(undefined)
  })

  it("clears the record after asking, and keeps it when the user keeps it", async () => {
    await recordSent(TRANSLATE)
    render(<SentLedgerSection />)
    fireEvent.click(await screen.findByRole("button", { name: "Clear" }))
    const dialog = await screen.findByRole("alertdialog")
    fireEvent.click(within(dialog).getByRole("button", { name: "Keep it" }))
    expect(fakeChrome().storage.local.items.get("sentLedger")).toHaveLength(1)

    fireEvent.click(await screen.findByRole("button", { name: "Clear" }))
    fireEvent.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Clear" }))
    expect(await screen.findByText(/Nothing sent in the last 30 days/)).toBeTruthy()
    expect(fakeChrome().storage.local.items.has("sentLedger")).toBe(false)
  })

  it("says sizes as a person reads them", () => {
    expect(sentSizeText({ imageBytes: 400 })).toBe("1 KB image")
    expect(sentSizeText({ textChars: 1 })).toBe("1 character")
    expect(sentSizeText({ textChars: 12_345 })).toBe("12,345 characters")
  })
})

describe("the line before the first question or translation from a host", () => {
  it("says what a translation sends and to whom until one from this host is recorded, then again on another host", async () => {
    setSentFromPage("https://news.example/a")
    render(<SendNotice kind="translation" text="Ausfahrt freihalten" />)
    const notice = await screen.findByTestId("send-notice")
    expect(notice.textContent).toBe("Translating sends this text (19 characters) to Image Query AI's server, which passes it to a third-party vision model provider.")

    // A question from this host is another kind: the translation's line stays.
    await act(() => recordSent({ method: "POST", path: "/api/analyze/ask", json: { question: "What?" } }))
    expect(screen.queryByTestId("send-notice")).not.toBeNull()
    await act(() => recordSent(TRANSLATE))
    expect(screen.queryByTestId("send-notice")).toBeNull()

    // Another page of the same site: said already. Another site: said again.
    act(() => setSentFromPage("https://news.example/b"))
    expect(screen.queryByTestId("send-notice")).toBeNull()
    act(() => setSentFromPage("https://other.example/"))
    expect(screen.queryByTestId("send-notice")).not.toBeNull()
    setSentFromPage(undefined)
  })

  it("words a question about one image, and a chat's question about several, with the size once measured", () => {
    const image = { url: "https://photos.example/a.jpg" }
    expect(sendNoticeText({ kind: "question", images: [image] }, 123_456)).toBe(
      "Asking sends this image (about 123 KB) and your question to Image Query AI's server, which passes them to a third-party vision model provider."
    )
    expect(sendNoticeText({ kind: "question", images: [image] }, null)).toMatch(/^Asking sends this image and your question to/)
    expect(sendNoticeText({ kind: "question", images: [image, image], chat: true }, 240_000)).toMatch(/^Each question sends the 2 selected images \(about 240 KB\) and your question/)
  })
})
