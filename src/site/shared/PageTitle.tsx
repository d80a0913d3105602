import { PRODUCT_NAME } from "~core/company"

/** Sets the document title; React hoists <title> into the head. */
export function PageTitle({ title }: { title?: string }) {
  return <title>{title ? `${title} · ${PRODUCT_NAME}` : PRODUCT_NAME}</title>
}
