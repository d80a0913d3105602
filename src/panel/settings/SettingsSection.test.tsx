import { fireEvent, render, screen } from "@testing-library/react"
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"

import { getApiOrigin, PLAIN_HTTP_REFUSED_ERROR } from "~extension/site-link/api-origin"
import { changeApiOrigin, readExtensionSession, saveExtensionSession, type ExtensionSession } from "~extension/account/extension-session"
import { createFakeChrome } from "~extension/browser/fake-chrome.test-support"

import { DEFAULT_PANEL_SETTINGS } from "./settings"
import { ADDRESS_CHANGED_MESSAGE, SettingsSection } from "./SettingsSection"

const OLD_API = "https://old.test"
const NEW_API = "https://new.test"
const session: ExtensionSession = { user: { name: "Ada", email: "ada@example.com", role: "user", provider: "email" }, token: "ext-a", refreshToken: "ext-refresh-a", expiresAt: Date.now() + 3_600_000 }

/** What the old service was told, with what storage held at that moment. */
let logouts: { url: string; authorization: string | null; apiOrigin: string }[]

beforeEach(async () => {
  vi.stubGlobal("chrome", createFakeChrome())
  logouts = []
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init)
    // The language picker asks for the server's OCR language list: not a logout.
    if (request.url.endsWith("/api/ocr/languages")) return Response.json({ success: true, data: { languages: [], scriptDetection: null } })
    logouts.push({ url: request.url, authorization: request.headers.get("authorization"), apiOrigin: await getApiOrigin() })
    return Response.json({ success: true, data: { loggedOut: true } })
  })
  await chrome.storage.local.set({ apiOrigin: OLD_API })
  await saveExtensionSession(session)
})
afterEach(() => vi.unstubAllGlobals())

/** The Settings section as the side panel wires it: saving the address goes through changeApiOrigin. */
function renderSettings() {
  render(<SettingsSection settings={DEFAULT_PANEL_SETTINGS} onChange={() => {}} apiOrigin={OLD_API} onApiOriginChange={changeApiOrigin} />)
  const field = screen.getByLabelText("Service address")
  return (address: string) => {
    fireEvent.change(field, { target: { value: address } })
    fireEvent.click(screen.getByRole("button", { name: "Save" }))
  }
}

describe("the service address in Settings", () => {
  it("signs the extension out of the old service before it stores a new address", async () => {
    const save = renderSettings()
    save(`${NEW_API}/`)
    await screen.findByText(ADDRESS_CHANGED_MESSAGE)
    expect(logouts).toEqual([{ url: `${OLD_API}/api/auth/logout`, authorization: "Bearer ext-a", apiOrigin: OLD_API }])
    await expect(readExtensionSession()).resolves.toBeNull()
    await expect(getApiOrigin()).resolves.toBe(NEW_API)
    expect((screen.getByLabelText("Service address") as HTMLInputElement).value).toBe(NEW_API)
  })

  it("refuses plain http to another computer with the reason in the field, and keeps the session", async () => {
    const save = renderSettings()
    save("http://example.com")
    const message = await screen.findByRole("alert")
    expect(message.textContent).toBe(PLAIN_HTTP_REFUSED_ERROR)
    expect(logouts).toEqual([])
    await expect(readExtensionSession()).resolves.toEqual(session)
    await expect(getApiOrigin()).resolves.toBe(OLD_API)
  })

  it("keeps the session when the same address is saved again", async () => {
    const save = renderSettings()
    save(OLD_API)
    await screen.findByText("Saved.")
    expect(logouts).toEqual([])
    await expect(readExtensionSession()).resolves.toEqual(session)
  })
})
