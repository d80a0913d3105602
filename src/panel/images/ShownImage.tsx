/**
 * An <img> of the panel for an image of a page. The panel never shows a page's image by the page's address: the
 * browser would load a live src with the person's cookies, from whatever address the page names (their intranet
 * too), and decode whatever it got. It shows an object URL of the bytes it read itself (imageBlob: no credentials, the
 * address checked, the size bounded, image-bytes.ts), and in their place, in words, why they could not be read. Only
 * the panel's own blob: images (its captures and pastes) are shown by their address.
 *
 * `loading="lazy"` (the Images list) reads an image only once it comes near the view, as the browser would load it,
 * at a low priority and apart from the analyses' few kept images (a list of hundreds would push out the one being
 * analysed); an image shown in full (its detail) shares the bytes its analyses read.
 */
import { useEffect, useRef, useState, type ImgHTMLAttributes, type RefObject } from "react"

import { imageBlob } from "../analyses"
import { readImage, type ImageLocation } from "./image-bytes"

/** How near the view a lazy image starts being read. */
const LAZY_MARGIN = "600px"

/** A blob: address of this page's own (a capture or a paste): shown as it is, nothing is fetched for it. */
export function isOwnBlobUrl(url: string, ownOrigin: string = location.origin): boolean {
  return url.startsWith(`blob:${ownOrigin}/`)
}

export type ShownImageState = { kind: "reading" } | { kind: "shown"; url: string } | { kind: "failed"; message: string }

/** What the panel shows for `image`: the address of its bytes once read (nothing is read while `active` is false). */
export function useShownImage(image: ImageLocation, active = true, thumbnail = false): ShownImageState {
  const own = isOwnBlobUrl(image.url)
  const [state, setState] = useState<{ of: string; shown: ShownImageState } | null>(null)
  useEffect(() => {
    if (own || !active) return
    let objectUrl: string | null = null
    let cancelled = false
    ;(thumbnail ? readImage(image, fetch, "low") : imageBlob(image)).then(
      (blob) => {
        if (cancelled) return
        objectUrl = URL.createObjectURL(blob)
        setState({ of: image.url, shown: { kind: "shown", url: objectUrl } })
      },
      (error: unknown) => {
        if (!cancelled) setState({ of: image.url, shown: { kind: "failed", message: error instanceof Error ? error.message : "The image could not be read." } })
      }
    )
    return () => {
      cancelled = true
      if (objectUrl) URL.revokeObjectURL(objectUrl)
    }
  }, [own, active, thumbnail, image.url, image.tabId, image.frameId, image.pageUrl]) // eslint-disable-line react-hooks/exhaustive-deps -- the location's parts, not the object
  if (own) return { kind: "shown", url: image.url }
  return state?.of === image.url ? state.shown : { kind: "reading" }
}

/** False until `element` comes within LAZY_MARGIN of the view, then true; always true when not `lazy`. */
function useNearView(element: RefObject<Element | null>, lazy: boolean): boolean {
  const [near, setNear] = useState(!lazy || typeof IntersectionObserver !== "function")
  useEffect(() => {
    if (near || !element.current) return
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) setNear(true)
    }, { rootMargin: LAZY_MARGIN })
    observer.observe(element.current)
    return () => observer.disconnect()
  }, [near, element])
  return near
}

export interface ShownImageProps extends Omit<ImgHTMLAttributes<HTMLImageElement>, "src"> {
  image: ImageLocation
  /** A thumbnail too small for a sentence: why it cannot be shown is a mark, with the sentence as its name and tooltip. */
  brief?: boolean
}

export function ShownImage({ image, loading, brief = false, ...props }: ShownImageProps) {
  const element = useRef<HTMLElement>(null)
  const shown = useShownImage(image, useNearView(element, loading === "lazy"), loading === "lazy")
  if (shown.kind === "failed") {
    const box = `${props.className ?? ""} flex items-center justify-center overflow-hidden text-center text-red-800`
    return brief ? (
      <span ref={element} role="img" aria-label={shown.message} title={shown.message} className={`${box} text-base font-semibold`}>
        !
      </span>
    ) : (
      // Clear of the card's corner, where its checkbox sits.
      <span ref={element} title={shown.message} className={`${box} px-2 pb-1 pt-8 text-xs`}>
        {shown.message}
      </span>
    )
  }
  return <img ref={element as RefObject<HTMLImageElement>} src={shown.kind === "shown" ? shown.url : undefined} {...props} />
}
