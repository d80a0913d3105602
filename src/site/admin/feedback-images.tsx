/**
 * Feedback images need the admin's bearer token, so an <img> cannot load them by URL: each is
 * fetched once per page visit and shown from a blob URL, freed when the page closes.
 */
import { createContext, useContext, useEffect, useState, type ReactNode } from "react"

import { FEEDBACK_ADMIN_TEXTS } from "~core/admin/feedback"

import { fetchFeedbackImage } from "./admin-requests"

type Loaded = { state: "ready"; src: string } | { state: "failed" }

class ImageCache {
  private readonly entries = new Map<string, Promise<Loaded>>()
  private readonly urls: string[] = []

  load(url: string): Promise<Loaded> {
    let entry = this.entries.get(url)
    if (!entry) {
      entry = fetchFeedbackImage(url).then(
        (blob) => {
          const src = URL.createObjectURL(blob)
          this.urls.push(src)
          return { state: "ready" as const, src }
        },
        () => ({ state: "failed" as const })
      )
      this.entries.set(url, entry)
    }
    return entry
  }

  dispose() {
    this.urls.forEach((src) => URL.revokeObjectURL(src))
    this.urls.length = 0
    this.entries.clear()
  }
}

const CacheContext = createContext<ImageCache | null>(null)

export function FeedbackImageProvider({ children }: { children: ReactNode }) {
  const [cache] = useState(() => new ImageCache())
  useEffect(() => () => cache.dispose(), [cache])
  return <CacheContext.Provider value={cache}>{children}</CacheContext.Provider>
}

function useFeedbackImage(url: string): Loaded | { state: "loading" } {
  const cache = useContext(CacheContext)
  const [loaded, setLoaded] = useState<{ url: string; result: Loaded } | null>(null)
  useEffect(() => {
    if (!cache) return
    let live = true
    void cache.load(url).then((result) => {
      if (live) setLoaded({ url, result })
    })
    return () => {
      live = false
    }
  }, [cache, url])
  return loaded?.url === url ? loaded.result : { state: "loading" }
}

/** One feedback image; 'Image unavailable' when it cannot be fetched or decoded. */
export function FeedbackImage({ url, alt, className = "", compact = false }: { url: string; alt: string; className?: string; compact?: boolean }) {
  const loaded = useFeedbackImage(url)
  const [broken, setBroken] = useState<string | null>(null)
  if (loaded.state === "failed" || (loaded.state === "ready" && broken === loaded.src)) {
    return (
      <span role="img" aria-label={`${alt}: ${FEEDBACK_ADMIN_TEXTS.imageUnavailable}`} className={`flex items-center justify-center bg-gray-100 text-center text-gray-500 ${compact ? "text-[9px] leading-tight" : "text-xs"} ${className}`}>
        {FEEDBACK_ADMIN_TEXTS.imageUnavailable}
      </span>
    )
  }
  if (loaded.state === "loading") return <span aria-label={`${alt}: loading`} role="img" className={`block animate-pulse bg-gray-200 ${className}`} />
  return <img src={loaded.src} alt={alt} className={className} onError={() => setBroken(loaded.src)} />
}
