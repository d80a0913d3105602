import { useCallback, useMemo, useState } from "react"

/** The images ticked in the grid for the chat, by URL. */
export function useTickedImages() {
  const [urls, setUrls] = useState<ReadonlySet<string>>(new Set())
  const toggle = useCallback((url: string) => {
    setUrls((current) => {
      const next = new Set(current)
      if (!next.delete(url)) next.add(url)
      return next
    })
  }, [])
  const clear = useCallback(() => setUrls(new Set()), [])
  return useMemo(() => ({ urls, has: (url: string) => urls.has(url), toggle, clear }), [urls, toggle, clear])
}
