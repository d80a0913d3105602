import type { PageImage } from "~core/page-images"

/** The page's <img> elements, one entry per URL, with intrinsic and rendered size. */
export function collectPageImages(root: Document = document): PageImage[] {
  const byUrl = new Map<string, PageImage>()
  for (const image of Array.from(root.images)) {
    const url = image.currentSrc || image.src
    if (!url || byUrl.has(url)) continue
    const rendered = image.getBoundingClientRect()
    byUrl.set(url, {
      url,
      width: image.naturalWidth,
      height: image.naturalHeight,
      renderedWidth: Math.round(rendered.width),
      renderedHeight: Math.round(rendered.height),
      alt: image.alt,
      source: image.parentElement instanceof HTMLPictureElement ? "picture" : image.srcset ? "srcset" : "img"
    })
  }
  return [...byUrl.values()]
}
