/**
 * Each of the panel's tabs keeps its own scroll position, as the tabs of a phone app do. The tabs share the
 * document's one scroller, so without this a tab opened after scrolling another showed its top under the sticky
 * header: History's *Clear history* hid there after a long chat.
 */
import { useEffect, useLayoutEffect, useRef } from "react"

export function useTabScroll(tab: string): void {
  const positions = useRef(new Map<string, number>())
  const shown = useRef(tab)
  useEffect(() => {
    // Scroll events arrive after the frame: by then `shown` names the tab the position belongs to.
    const remember = () => positions.current.set(shown.current, window.scrollY)
    window.addEventListener("scroll", remember, { passive: true })
    return () => window.removeEventListener("scroll", remember)
  }, [])
  useLayoutEffect(() => {
    if (shown.current === tab) return
    shown.current = tab
    // Before the paint: the tab never shows at the other tab's position.
    window.scrollTo(0, positions.current.get(tab) ?? 0)
  }, [tab])
}
