/**
 * An <img> of the panel for an image of the page. A page's blob: image belongs to the page's origin: Chrome lets the
 * panel show it by its address, Firefox does not. So an image whose blob: address is of another origin than the
 * panel's is shown from the panel's own copy of its bytes, read through the page once (imageBlob, cached), in both
 * browsers alike. Every other address is shown as it is.
 */
import { useEffect, useState, type ImgHTMLAttributes } from "react"

import { imageBlob } from "./analyses"
import type { ImageLocation } from "./image-bytes"

/** A blob: address made by another origin than this page's (the panel's own captures and pastes are its own). */
export function isForeignBlobUrl(url: string, ownOrigin: string = location.origin): boolean {
  if (!url.startsWith("blob:")) return false
  try {
    return new URL(url.slice("blob:".length)).origin !== ownOrigin
  } catch {
    return true
  }
}

/** The address the panel can show `image` by: its own, or an object URL of its bytes (undefined while they are read). */
export function useShownImageUrl(image: ImageLocation): string | undefined {
  const foreign = isForeignBlobUrl(image.url)
  const [copy, setCopy] = useState<{ of: string; url: string } | null>(null)
  useEffect(() => {
    if (!foreign) return
    let objectUrl: string | null = null
    let cancelled = false
    imageBlob(image)
      .then((blob) => {
        if (cancelled) return
        objectUrl = URL.createObjectURL(blob)
        setCopy({ of: image.url, url: objectUrl })
      })
      // An image the page no longer has shows its description; the analyses say why when asked.
      .catch(() => undefined)
    return () => {
      cancelled = true
      if (objectUrl) URL.revokeObjectURL(objectUrl)
    }
  }, [foreign, image.url, image.tabId, image.frameId]) // eslint-disable-line react-hooks/exhaustive-deps -- the location's parts, not the object
  if (!foreign) return image.url
  return copy?.of === image.url ? copy.url : undefined
}

export function ShownImage({ image, ...props }: { image: ImageLocation } & Omit<ImgHTMLAttributes<HTMLImageElement>, "src">) {
  return <img src={useShownImageUrl(image)} {...props} />
}
