import { withTimeout } from "~core/with-timeout"

/**
 * The Clipboard API can wait on a permission decision that never comes while an extension page lacks focus;
 * the selection route works in extension pages whenever the extension holds clipboardWrite, so it goes first.
 */
const CLIPBOARD_TIMEOUT_MS = 1500

function copyBySelection(text: string): boolean {
  // Selecting the text area takes the focus: it goes back where it was, so a keyboard user stays in place.
  const focused = document.activeElement
  const area = document.createElement("textarea")
  area.value = text
  area.setAttribute("readonly", "")
  area.style.position = "fixed"
  area.style.opacity = "0"
  document.body.append(area)
  area.select()
  const copied = document.execCommand("copy")
  area.remove()
  if (focused instanceof HTMLElement) focused.focus({ preventScroll: true })
  return copied
}

/** Copies text; resolves whether it worked. */
export async function copyText(text: string): Promise<boolean> {
  if (copyBySelection(text)) return true
  try {
    await withTimeout(navigator.clipboard.writeText(text), CLIPBOARD_TIMEOUT_MS, "The clipboard did not answer")
    return true
  } catch {
    return false
  }
}
