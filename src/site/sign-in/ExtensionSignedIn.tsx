/** What a sign-in started from the extension (?source=extension) ends on: says so, then closes the tab after 2 s. */
import { useEffect } from "react"

import { Notice } from "~ui/Notice"
import { SECOND_MS } from "~core/time"
import { AuthCard } from "~site/shared/AuthCard"

export const EXTENSION_TAB_CLOSE_DELAY_MS = 2 * SECOND_MS

export function ExtensionSignedIn() {
  useEffect(() => {
    const timer = setTimeout(() => window.close(), EXTENSION_TAB_CLOSE_DELAY_MS)
    return () => clearTimeout(timer)
  }, [])
  return (
    <AuthCard title="You're signed in" subtitle="Image Query AI in your browser is now signed in too.">
      <Notice tone="success">Signed in successfully. This tab closes by itself in a moment.</Notice>
    </AuthCard>
  )
}

