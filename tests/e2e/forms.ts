/** Filling the site's forms as a user does, by the labels people read. */
import type { Page } from "puppeteer-core"

/**
 * The input, select or text area a label names, as a puppeteer XPath selector; `scope`, an XPath step to the part of
 * the page the label is in, where the page has two fields of one name (the dashboard's password fields).
 */
export const fieldByLabel = (label: string, scope = "") =>
  `xpath/.${scope}//*[self::input or self::select or self::textarea][@id=${scope}//label[normalize-space()='${label}']/@for]`

/** Replaces what the field a label names holds with `value` (a select chooses that option), waiting for the field first. */
export async function fillField(page: Page, label: string, value: string, scope = ""): Promise<void> {
  const field = (await page.waitForSelector(fieldByLabel(label, scope)))!
  if ((await field.evaluate((element) => element.tagName)) === "SELECT") {
    await field.select(value)
    return
  }
  await field.click({ count: 3 })
  await field.press("Backspace")
  await field.type(value)
}
