import { useMemo } from "react"

import { extensionSessionItem } from "./extension-session"
import { brandLogoItem, brandOf, membershipOfUser, type Brand } from "./organization-brand"
import { useStorageItem } from "../storage/use-storage-item"

/**
 * The organisation's brand for the header, read from storage alone (the stored session's membership and the kept
 * logo), so it shows at once and offline, and follows sign-in, sign-out and a refreshed profile in any extension
 * context. Null while storage is read, signed out, or for an account in no organisation.
 */
export function useBrand(): Brand | null {
  const [session] = useStorageItem(extensionSessionItem)
  const [logo] = useStorageItem(brandLogoItem)
  const membership = session?.user.organization
  return useMemo(() => brandOf(membershipOfUser({ organization: membership }), logo ?? null), [membership, logo])
}
