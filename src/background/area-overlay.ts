/**
 * The area overlay, run in a page by chrome.scripting.executeScript({ func }): Chrome sends the function's source
 * alone, so each function here uses nothing from outside itself (not even the types' runtime: there is none).
 * It runs in the extension's isolated world, and its elements live in a closed shadow root: the page's scripts
 * see neither its state nor its contents.
 *
 * Threat: the page's own scripts share the DOM. They can find the overlay's host element and dispatch pointer and
 * key events on it or on window (a selection made or finished, Enter taking the whole view, Escape cancelling),
 * or a visibilitychange. Such events are untrusted (isTrusted false, which no page can forge), so the overlay acts
 * only on trusted ones: only the user's own hand makes or ends a selection.
 */
import type { SelectedArea } from "~extension/capture/area-capture"

/** The isolated world's global under which a running overlay can be cancelled. */
type OverlayScope = { __imageQueryAiAreaOverlay?: { cancel(): void; selectWholeView(): void } }

/**
 * Covers the viewport with a crosshair overlay and resolves with the area dragged (CSS pixels of the viewport), or
 * with null when the user presses Escape, the tab is hidden or cancelAreaOnPage is run. Enter (or
 * selectWholeViewOnPage, from the side panel's button) takes the whole visible page: the keyboard's way in. Drags smaller than
 * `minSide` on either side are refused and the overlay waits for another. The overlay is gone, and the page painted
 * without it, before the promise resolves: the caller takes its screenshot then.
 */
export function selectAreaOnPage(hint: string, minSide: number): Promise<SelectedArea | null> {
  const scope = globalThis as OverlayScope
  scope.__imageQueryAiAreaOverlay?.cancel()
  return new Promise((resolve) => {
    const host = document.createElement("div")
    host.style.cssText = "all:initial;position:fixed;inset:0;z-index:2147483647;cursor:crosshair;touch-action:none;user-select:none;"
    host.tabIndex = -1
    const root = host.attachShadow({ mode: "closed" })
    const style = document.createElement("style")
    style.textContent = `
      .shade { position: fixed; inset: 0; background: rgba(15, 23, 42, 0.35); }
      .shade.dragging { background: transparent; }
      .box { position: fixed; box-sizing: border-box; border: 2px solid #ffffff; outline: 1px solid #1d4ed8; box-shadow: 0 0 0 100vmax rgba(15, 23, 42, 0.35); }
      .size, .hint { position: fixed; font: 600 13px/1.4 system-ui, sans-serif; color: #ffffff; background: #111827; border-radius: 6px; padding: 4px 8px; white-space: nowrap; pointer-events: none; }
      .hint { top: 16px; left: 50%; transform: translateX(-50%); font-size: 14px; padding: 8px 12px; }
      [hidden] { display: none; }
    `
    const shade = document.createElement("div")
    shade.className = "shade"
    const box = document.createElement("div")
    box.className = "box"
    box.hidden = true
    const size = document.createElement("div")
    size.className = "size"
    size.hidden = true
    const hintText = document.createElement("div")
    hintText.className = "hint"
    hintText.setAttribute("role", "status")
    hintText.textContent = hint
    root.append(style, shade, box, size, hintText)

    let start: { x: number; y: number } | null = null
    const clampX = (x: number) => Math.min(Math.max(x, 0), window.innerWidth)
    const clampY = (y: number) => Math.min(Math.max(y, 0), window.innerHeight)
    // Dragging up or left gives the same area as dragging down and right.
    const areaTo = (event: PointerEvent) => {
      const endX = clampX(event.clientX)
      const endY = clampY(event.clientY)
      const x = Math.min(start!.x, endX)
      const y = Math.min(start!.y, endY)
      return { x, y, width: Math.abs(endX - start!.x), height: Math.abs(endY - start!.y) }
    }

    const show = (area: { x: number; y: number; width: number; height: number }) => {
      shade.classList.add("dragging")
      box.hidden = false
      box.style.cssText = `left:${area.x}px;top:${area.y}px;width:${area.width}px;height:${area.height}px;`
      size.hidden = false
      size.textContent = `${Math.round(area.width)} × ${Math.round(area.height)}`
      const below = area.y + area.height + 32 < window.innerHeight
      size.style.cssText = `left:${area.x}px;top:${below ? area.y + area.height + 6 : Math.max(0, area.y - 30)}px;`
    }
    const reset = () => {
      start = null
      shade.classList.remove("dragging")
      box.hidden = true
      size.hidden = true
    }

    const finish = (answer: SelectedArea | null) => {
      host.removeEventListener("pointerdown", onDown)
      host.removeEventListener("pointermove", onMove)
      host.removeEventListener("pointerup", onUp)
      window.removeEventListener("keydown", onKey, true)
      document.removeEventListener("visibilitychange", onHidden)
      host.remove()
      if (scope.__imageQueryAiAreaOverlay === handle) delete scope.__imageQueryAiAreaOverlay
      // Two frames: the page is painted without the overlay before anyone takes its screenshot.
      requestAnimationFrame(() => requestAnimationFrame(() => resolve(answer)))
    }

    const onDown = (event: PointerEvent) => {
      if (!event.isTrusted || event.button !== 0) return
      event.preventDefault()
      start = { x: clampX(event.clientX), y: clampY(event.clientY) }
      host.setPointerCapture?.(event.pointerId)
      show({ ...start, width: 0, height: 0 })
    }
    const onMove = (event: PointerEvent) => {
      if (event.isTrusted && start) show(areaTo(event))
    }
    const onUp = (event: PointerEvent) => {
      if (!event.isTrusted || !start) return
      const area = areaTo(event)
      if (area.width < minSide || area.height < minSide) {
        reset()
        return
      }
      finish(selected(area))
    }
    const wholeView = () => ({ x: 0, y: 0, width: window.innerWidth, height: window.innerHeight })
    const selected = (area: { x: number; y: number; width: number; height: number }): SelectedArea => ({
      area,
      viewport: { width: window.innerWidth, height: window.innerHeight },
      devicePixelRatio: window.devicePixelRatio
    })
    const onKey = (event: KeyboardEvent) => {
      if (!event.isTrusted || (event.key !== "Escape" && event.key !== "Enter")) return
      event.preventDefault()
      event.stopPropagation()
      finish(event.key === "Enter" ? selected(wholeView()) : null)
    }
    const onHidden = (event: Event) => {
      if (event.isTrusted && document.visibilityState === "hidden") finish(null)
    }
    const handle = { cancel: () => finish(null), selectWholeView: () => finish(selected(wholeView())) }

    host.addEventListener("pointerdown", onDown)
    host.addEventListener("pointermove", onMove)
    host.addEventListener("pointerup", onUp)
    window.addEventListener("keydown", onKey, true)
    document.addEventListener("visibilitychange", onHidden)
    scope.__imageQueryAiAreaOverlay = handle
    document.documentElement.append(host)
    host.focus({ preventScroll: true })
  })
}

/** Removes a running overlay (its selection resolves with null). */
export function cancelAreaOnPage(): boolean {
  const overlay = (globalThis as OverlayScope).__imageQueryAiAreaOverlay
  overlay?.cancel()
  return overlay !== undefined
}

/** Ends a running overlay with the whole visible page as its area. */
export function selectWholeViewOnPage(): boolean {
  const overlay = (globalThis as OverlayScope).__imageQueryAiAreaOverlay
  overlay?.selectWholeView()
  return overlay !== undefined
}
