import { useEffect } from "react"
import { useLocation } from "react-router"

/** Scrolls to the top on every path change, or to the element a #hash names (the Features link). */
export function ScrollManager() {
  const { pathname, hash } = useLocation()

  useEffect(() => {
    if (!hash) {
      window.scrollTo(0, 0)
      return
    }
    const id = decodeURIComponent(hash.slice(1))
    // The target may belong to a lazily loaded page; look again on the next frames until it exists.
    let attempts = 0
    let frame = 0
    const scrollToTarget = () => {
      const target = document.getElementById(id)
      if (target) target.scrollIntoView()
      else if (attempts++ < 60) frame = requestAnimationFrame(scrollToTarget)
    }
    scrollToTarget()
    return () => cancelAnimationFrame(frame)
  }, [pathname, hash])

  return null
}
