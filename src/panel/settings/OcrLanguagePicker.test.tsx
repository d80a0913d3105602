import { fireEvent, render, screen, waitFor, within } from "@testing-library/react"
import { useState } from "react"
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"

import { KNOWN_OCR_LANGUAGES } from "~core/ocr/ocr-languages"
import { createFakeChrome } from "~extension/browser/fake-chrome.test-support"

import { LANGUAGES_UNAVAILABLE_MESSAGE } from "./ocr-languages"
import { OcrLanguagePicker } from "./OcrLanguagePicker"

const pack = (code: string, name: string, nativeName: string, script: string) => ({ code, name, nativeName, script, size: 1000, sha256: "a".repeat(64) })
const LIST = {
  languages: [pack("eng", "English", "English", "Latin"), pack("hin", "Hindi", "हिन्दी", "Devanagari"), pack("jpn", "Japanese", "日本語", "Japanese"), pack("ara", "Arabic", "العربية", "Arabic")],
  scriptDetection: null
}

let origin = 0

beforeEach(async () => {
  vi.stubGlobal("chrome", createFakeChrome())
  // A new address per test: the list is asked once per service address.
  await chrome.storage.local.set({ apiOrigin: `https://api-${++origin}.test` })
})
afterEach(() => vi.unstubAllGlobals())

function Picker({ initial }: { initial: string[] }) {
  const [value, setValue] = useState(initial)
  const [detect, setDetect] = useState(false)
  return <OcrLanguagePicker value={value} onChange={setValue} detect={detect} onDetectChange={setDetect} />
}

const box = (name: RegExp) => screen.getByRole("checkbox", { name }) as HTMLInputElement

describe("the Text (OCR) language picker", () => {
  it("offers English and the server's languages, named in English and in their own script, several at once", async () => {
    const fetch = vi.fn(async (_input: RequestInfo | URL) => Response.json({ success: true, data: LIST }))
    vi.stubGlobal("fetch", fetch)
    render(<Picker initial={["eng"]} />)
    await waitFor(() => expect(screen.getAllByRole("checkbox")).toHaveLength(4))
    expect(new Request(fetch.mock.calls[0]![0]).url).toBe(`https://api-${origin}.test/api/ocr/languages`)
    expect(within(box(/Hindi/).closest("label")!).getByText(/हिन्दी/)).toBeTruthy()

    // The only language chosen cannot be unticked.
    expect(box(/English/).disabled).toBe(true)
    fireEvent.click(box(/Hindi/))
    expect(screen.getByTestId("ocr-languages").textContent).toBe("English + हिन्दी (Hindi)")
    expect(box(/English/).disabled).toBe(false)

    // Three at most: the fourth waits until one is unticked.
    fireEvent.click(box(/Japanese/))
    expect(box(/Arabic/).disabled).toBe(true)
    fireEvent.click(box(/English/))
    expect(box(/Arabic/).disabled).toBe(false)
    expect(screen.getByTestId("ocr-languages").textContent).toBe("हिन्दी (Hindi) + 日本語 (Japanese)")
  })

  it("offers Detect language only when the server has the script detection pack, and says so in the summary", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => Response.json({ success: true, data: { ...LIST, scriptDetection: pack("osd", "Orientation and script detection", "", "") } })))
    render(<Picker initial={["eng"]} />)
    const detect = (await screen.findByRole("checkbox", { name: "Detect language" })) as HTMLInputElement
    expect(detect.checked).toBe(false)
    fireEvent.click(detect)
    expect(detect.checked).toBe(true)
    expect(screen.getByTestId("ocr-languages").textContent).toBe("Detect (else English)")
  })

  it("does not offer Detect language when the server lacks the pack", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => Response.json({ success: true, data: LIST })))
    render(<Picker initial={["eng"]} />)
    await waitFor(() => expect(screen.getAllByRole("checkbox")).toHaveLength(4))
    expect(screen.queryByRole("checkbox", { name: "Detect language" })).toBeNull()
  })

  it("keeps English when the service cannot be reached, and says where the other languages come from", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => Promise.reject(new TypeError("Failed to fetch"))))
    render(<Picker initial={["eng"]} />)
    await screen.findByText(LANGUAGES_UNAVAILABLE_MESSAGE)
    expect(screen.getAllByRole("checkbox")).toHaveLength(1)
    expect(box(/English/).checked).toBe(true)
  })

  it("lets a list of every tesseract language be searched by either name or code, accents aside, the chosen ones staying in view", async () => {
    const everyLanguage = KNOWN_OCR_LANGUAGES.map(({ code, name, nativeName, script }) => pack(code, name, nativeName, script))
    vi.stubGlobal("fetch", vi.fn(async () => Response.json({ success: true, data: { languages: everyLanguage, scriptDetection: null } })))
    render(<Picker initial={["eng"]} />)
    await waitFor(() => expect(screen.getAllByRole("checkbox")).toHaveLength(KNOWN_OCR_LANGUAGES.length))
    const search = screen.getByRole("searchbox", { name: "Find a language" })
    const shownNames = () => screen.getAllByRole("checkbox").map((checkbox) => checkbox.closest("label")!.textContent)

    fireEvent.change(search, { target: { value: "Русск" } })
    expect(shownNames()).toEqual(["EnglishLatin", "Russian · РусскийCyrillic"])
    fireEvent.click(box(/Russian/))
    fireEvent.change(search, { target: { value: "PORTUGUES" } })
    expect(shownNames()).toEqual(["EnglishLatin", "Portuguese · PortuguêsLatin", "Russian · РусскийCyrillic"])
    fireEvent.change(search, { target: { value: "chi_" } })
    expect(shownNames()).toEqual(["EnglishLatin", "Chinese (Simplified) · 简体中文Han", "Chinese (Traditional) · 繁體中文Han", "Russian · РусскийCyrillic"])
    fireEvent.change(search, { target: { value: "klingon" } })
    expect(shownNames()).toEqual(["EnglishLatin", "Russian · РусскийCyrillic"])
    expect(screen.getByText("No other language matches “klingon”.")).toBeTruthy()
    fireEvent.change(search, { target: { value: "" } })
    expect(screen.getAllByRole("checkbox")).toHaveLength(KNOWN_OCR_LANGUAGES.length)
    expect(screen.getByTestId("ocr-languages").textContent).toBe("English + Русский (Russian)")
  })

  it("shows no search box for a short list", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => Response.json({ success: true, data: LIST })))
    render(<Picker initial={["eng"]} />)
    await waitFor(() => expect(screen.getAllByRole("checkbox")).toHaveLength(4))
    expect(screen.queryByRole("searchbox")).toBeNull()
  })

  it("keeps the list a Tab stop while a reading has its boxes disabled, so that it still scrolls from the keyboard", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => Response.json({ success: true, data: LIST })))
    render(<OcrLanguagePicker value={["eng"]} onChange={() => {}} detect={false} onDetectChange={() => {}} disabled />)
    const list = await screen.findByRole("group", { name: "Languages to read" })
    await waitFor(() => expect(within(list).getAllByRole("checkbox")).toHaveLength(4))
    for (const checkbox of within(list).getAllByRole("checkbox")) expect((checkbox as HTMLInputElement).disabled).toBe(true)
    expect((list as HTMLFieldSetElement).disabled).toBe(false)
    expect(list.tabIndex).toBe(0)
  })
})
