import { fireEvent, render, screen, waitFor } from "@testing-library/react"
import { describe, expect, it } from "vitest"

import { installFakeChromeForEachTest } from "~extension/browser/fake-chrome.test-support"

import { PageTranslationSettingsSection } from "./PageTranslationSettings"
import { pageTranslationSettingsItem } from "./settings"

installFakeChromeForEachTest()

describe("Translate images in Settings", () => {
  it("lists the sites whose images are always translated, each removable", async () => {
    await pageTranslationSettingsItem.set({ alwaysOrigins: ["https://manga.example", "https://news.example"] })
    render(<PageTranslationSettingsSection />)
    const list = await screen.findByRole("list", { name: "Sites whose images are always translated" })
    await waitFor(() => expect([...list.querySelectorAll("li")].map((item) => item.firstChild?.textContent)).toEqual(["https://manga.example", "https://news.example"]))
    fireEvent.click(screen.getByRole("button", { name: "Remove https://manga.example" }))
    await waitFor(async () => expect((await pageTranslationSettingsItem.get()).alwaysOrigins).toEqual(["https://news.example"]))
    fireEvent.click(await screen.findByRole("button", { name: "Remove https://news.example" }))
    await screen.findByText(/No site yet/)
  })

  it("sets the language images are translated into, remembered", async () => {
    render(<PageTranslationSettingsSection />)
    const select = await screen.findByLabelText("Translate images into")
    fireEvent.change(select, { target: { value: "ko" } })
    await waitFor(async () => expect((await pageTranslationSettingsItem.get()).targetLanguage).toBe("ko"))
  })
})
