import { Dialog } from "radix-ui"
import { useEffect } from "react"

import { ChevronLeft, ChevronRight, X } from "~ui/icons"

import { FeedbackImage } from "./feedback-images"

/** Full-size viewer: Escape closes (the dialog's own), arrows and thumbnails move between the images. */
export function ImageViewer({ images, index, onIndexChange, onClose }: { images: string[]; index: number | null; onIndexChange: (index: number) => void; onClose: () => void }) {
  const open = index !== null && images.length > 0
  const current = open ? Math.min(index, images.length - 1) : 0
  const move = (step: number) => onIndexChange((current + step + images.length) % images.length)

  useEffect(() => {
    if (!open) return
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "ArrowRight") move(1)
      else if (event.key === "ArrowLeft") move(-1)
    }
    window.addEventListener("keydown", onKeyDown)
    return () => window.removeEventListener("keydown", onKeyDown)
  })

  return (
    <Dialog.Root open={open} onOpenChange={(next) => !next && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-neutral-950" />
        <Dialog.Content className="fixed inset-0 z-50 flex flex-col items-center justify-center gap-4 p-4 focus:outline-none" aria-describedby={undefined}>
          <Dialog.Title className="text-sm font-medium text-white">
            Image {current + 1} of {images.length}
          </Dialog.Title>
          <div className="relative flex w-full max-w-5xl flex-1 items-center justify-center overflow-hidden">
            {open && <FeedbackImage key={images[current]} url={images[current]!} alt={`Attached image ${current + 1}`} className="max-h-[70vh] max-w-full rounded-lg object-contain" />}
            {images.length > 1 && (
              <>
                <button type="button" onClick={() => move(-1)} aria-label="Previous image" className="absolute left-2 top-1/2 -translate-y-1/2 rounded-full bg-white/90 p-2 text-gray-800 hover:bg-white focus-visible:outline focus-visible:outline-2 focus-visible:outline-white">
                  <ChevronLeft aria-hidden="true" className="h-6 w-6" />
                </button>
                <button type="button" onClick={() => move(1)} aria-label="Next image" className="absolute right-2 top-1/2 -translate-y-1/2 rounded-full bg-white/90 p-2 text-gray-800 hover:bg-white focus-visible:outline focus-visible:outline-2 focus-visible:outline-white">
                  <ChevronRight aria-hidden="true" className="h-6 w-6" />
                </button>
              </>
            )}
          </div>
          {images.length > 1 && (
            <ul className="flex gap-2" aria-label="Thumbnails">
              {images.map((url, position) => (
                <li key={url}>
                  <button
                    type="button"
                    onClick={() => onIndexChange(position)}
                    aria-label={`Show image ${position + 1}`}
                    aria-current={position === current}
                    className={`block overflow-hidden rounded-md ring-2 focus-visible:outline focus-visible:outline-2 focus-visible:outline-white ${position === current ? "ring-white" : "ring-transparent opacity-60 hover:opacity-100"}`}
                  >
                    <FeedbackImage url={url} alt={`Thumbnail ${position + 1}`} compact className="h-14 w-14 object-cover" />
                  </button>
                </li>
              ))}
            </ul>
          )}
          <Dialog.Close aria-label="Close viewer" className="absolute right-4 top-4 rounded-full bg-white/90 p-2 text-gray-800 hover:bg-white focus-visible:outline focus-visible:outline-2 focus-visible:outline-white">
            <X aria-hidden="true" className="h-5 w-5" />
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}
