/**
 * The one line said before the first question or translation from a page's host: what will be sent, and to whom.
 *
 * Per host, not per page: the pages of one site are one party to the user, and the same line again on every article
 * of a site would teach people to skip it. Per kind: a question sends an image, a translation text, so each is said
 * before it first happens. "First" is read from Sent from this device itself: the line shows until the record holds
 * a request of that kind from that host (so after Clear it shows again), and every panel agrees at once.
 */
import { useEffect, useState, useSyncExternalStore } from "react"

import { PRODUCT_NAME } from "~core/company"
import { characterCount, dataUrlBytes, sentFromHost, sentLedgerItem, watchSentFromHost, type SentEntry, type SentKind } from "~extension/account/sent-ledger"
import { useStorageItem } from "~extension/storage/use-storage-item"

import { readImage, toVqaDataUrl, type ImageLocation } from "../images/image-bytes"

/** In the privacy policy's words: it names no provider, which the server's operator may change. */
export const recipient = (what: "it" | "them") => `${PRODUCT_NAME}'s server, which passes ${what} to a third-party vision model provider`

/** "120 KB": kilobytes of 1,000 bytes, at least 1. */
export const kilobytes = (bytes: number): string => `${Math.max(1, Math.round(bytes / 1000)).toLocaleString("en")} KB`

export type SendNoticeProps = { kind: "question"; images: readonly ImageLocation[]; chat?: boolean } | { kind: "translation"; text: string }

/** The line itself; `imageBytes` is null until the images are measured (or when they cannot be). */
export function sendNoticeText(props: SendNoticeProps, imageBytes: number | null): string {
  if (props.kind === "translation") {
    const count = characterCount(props.text)
    return `Translating sends this text (${count.toLocaleString("en")} ${count === 1 ? "character" : "characters"}) to ${recipient("it")}.`
  }
  const size = imageBytes === null ? "" : ` (about ${kilobytes(imageBytes)})`
  const count = props.images.length
  const images = !props.chat ? "this image" : count === 1 ? "the selected image" : `the ${count} selected images`
  return `${props.chat ? "Each question sends" : "Asking sends"} ${images}${size} and your question to ${recipient("them")}.`
}

/** Whether the record already holds a request of this kind from this host. */
export const sentBefore = (entries: readonly SentEntry[], kind: SentKind, host: string | null): boolean => entries.some((entry) => entry.kind === kind && entry.host === host)

/** The bytes an image is sent as (the vision model's copy, scaled as asking scales it), kept per address for the panel's life. */
const measured = new Map<string, Promise<number>>()

function sentImageBytes(image: ImageLocation): Promise<number> {
  let bytes = measured.get(image.url)
  if (!bytes) {
    bytes = readImage(image).then(toVqaDataUrl).then(dataUrlBytes)
    // An image that cannot be read now may be readable later (a page that answers again).
    bytes.catch(() => measured.delete(image.url))
    measured.set(image.url, bytes)
  }
  return bytes
}

/** The images' total size as sent, once all are measured; null meanwhile or when one cannot be read. */
function useSentImageBytes(images: readonly ImageLocation[], wanted: boolean): number | null {
  const [bytes, setBytes] = useState<{ key: string; total: number } | null>(null)
  // The images by value: a new array of the same images is not a change.
  const key = JSON.stringify(images.map(({ url, tabId, frameId, pageUrl }) => ({ url, tabId, frameId, pageUrl })))
  useEffect(() => {
    const locations = JSON.parse(key) as ImageLocation[]
    if (!wanted || locations.length === 0) return
    let current = true
    Promise.all(locations.map(sentImageBytes)).then(
      (sizes) => current && setBytes({ key, total: sizes.reduce((sum, size) => sum + size, 0) }),
      () => {}
    )
    return () => {
      current = false
    }
  }, [key, wanted])
  return bytes?.key === key ? bytes.total : null
}

export function SendNotice(props: SendNoticeProps) {
  const host = useSyncExternalStore(watchSentFromHost, sentFromHost)
  const [entries] = useStorageItem(sentLedgerItem)
  const shown = entries !== undefined && !sentBefore(entries, props.kind, host)
  const imageBytes = useSentImageBytes(props.kind === "question" ? props.images : [], shown)
  if (!shown) return null
  return (
    <p data-testid="send-notice" className="text-xs text-gray-500">
      {sendNoticeText(props, imageBytes)}
    </p>
  )
}
