import { useCallback, useEffect, useState } from "react"

/** A countdown in whole seconds (the 60 s resend cooldown); ticks once a second while running. */
export function useCooldown(initialSeconds = 0) {
  const [endsAt, setEndsAt] = useState<number | null>(() => (initialSeconds > 0 ? Date.now() + initialSeconds * 1000 : null))
  const [now, setNow] = useState(() => Date.now())

  useEffect(() => {
    if (endsAt === null) return
    const timer = setInterval(() => {
      const current = Date.now()
      setNow(current)
      if (current >= endsAt) setEndsAt(null)
    }, 1000)
    return () => clearInterval(timer)
  }, [endsAt])

  const start = useCallback((seconds: number) => {
    const current = Date.now()
    setNow(current)
    setEndsAt(current + seconds * 1000)
  }, [])

  const secondsLeft = endsAt === null ? 0 : Math.max(0, Math.ceil((endsAt - now) / 1000))
  return { secondsLeft, start }
}
