/**
 * Each of the panel's sections keeps its own scroll position, as the tabs of a phone app do. The sections share the
 * document's one scroller, so without this a section opened after scrolling another showed its top under the sticky
 * header: History's *Clear history* hid there after a long chat.
 */
import { useEffect, useLayoutEffect, useRef } from "react"

export function useSectionScroll(section: string): void {
  const positions = useRef(new Map<string, number>())
  const shown = useRef(section)
  useEffect(() => {
    // Scroll events arrive after the frame: by then `shown` names the section the position belongs to.
    const remember = () => positions.current.set(shown.current, window.scrollY)
    window.addEventListener("scroll", remember, { passive: true })
    return () => window.removeEventListener("scroll", remember)
  }, [])
  useLayoutEffect(() => {
    if (shown.current === section) return
    shown.current = section
    // Before the paint: the section never shows at the other section's position.
    window.scrollTo(0, positions.current.get(section) ?? 0)
  }, [section])
}
