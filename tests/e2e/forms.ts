/** Filling the site's forms as a user does, by the labels people read. */
import type { ElementHandle, Page } from "puppeteer-core"

/**
 * The input, select or text area a label names, as a puppeteer XPath selector; `scope`, an XPath step to the part of
 * the page the label is in, where the page has two fields of one name (the dashboard's password fields).
 */
export const fieldByLabel = (label: string, scope = "") =>
  `xpath/.${scope}//*[self::input or self::select or self::textarea][@id=${scope}//label[normalize-space()='${label}']/@for]`

/**
 * Replaces what the field a label names holds with `value` (a select chooses that option), waiting for the field first,
 * and until the field holds it. By focus and the keyboard, not a click at a point: a card above that finishes loading
 * moves the field between the reading of its point and the click, which then lands on something else or finds the
 * field pushed off the screen ("not clickable"), as the organisation page's brand field did in CI.
 */
export async function fillField(page: Page, label: string, value: string, scope = ""): Promise<void> {
  const selector = fieldByLabel(label, scope)
  for (let attempt = 0; attempt < 3; attempt++) {
    const field = (await page.waitForSelector(selector))!
    if ((await field.evaluate((element) => element.tagName)) === "SELECT") {
      await field.select(value)
      return
    }
    await field.focus()
    await field.evaluate((input) => (input as HTMLInputElement).select())
    await page.keyboard.press("Backspace")
    await page.keyboard.type(value)
    if (await page.$eval(selector, (input, expected) => (input as HTMLInputElement).value === expected, value)) return
  }
  throw new Error(`The field labelled "${label}" does not hold "${value}" after three tries`)
}

/**
 * Ticks or unticks a checkbox from the keyboard once it is enabled, until it has changed. The panel's language picker
 * is disabled while a read runs, and a read can start between the wait and the key (an image opens reading its text,
 * another choice reads it again): a disabled box ignores the key.
 */
export async function pressUntilFlipped(page: Page, box: ElementHandle<Element>): Promise<void> {
  const wasChecked = await box.evaluate((input) => (input as HTMLInputElement).checked)
  for (let attempt = 0; attempt < 5; attempt++) {
    await page.waitForFunction((input) => !(input as HTMLInputElement).matches(":disabled"), { timeout: 90_000 }, box)
    await box.focus()
    await page.keyboard.press("Space")
    const flipped = await page
      .waitForFunction((input, before) => (input as HTMLInputElement).checked !== before, { timeout: 5_000 }, box, wasChecked)
      .then(() => true, () => false)
    if (flipped) return
  }
  throw new Error("The checkbox did not change after five presses of Space")
}
