import { useCallback, useEffect, useRef, useState } from "react"

import { onPageShown } from "~ui/page-shown"

import { loadAccount, type AccountState } from "./account"
import { watchExtensionSession } from "./extension-session"

/**
 * The account shown in the popup and the side panel, reloaded whenever the session changes in any extension context,
 * and when the page is shown or focused again: a plan bought on the site in the meantime shows its quota at once.
 */
export function useAccount(): { account: AccountState; reloadAccount: () => void } {
  const [account, setAccount] = useState<AccountState>({ kind: "checking" })
  const loading = useRef(false)
  const loadAgain = useRef(false)
  /** A change (a session, a used request) asked for during a load may postdate what that load read: load once more after it. */
  const reloadAccount = useCallback(() => {
    if (loading.current) {
      loadAgain.current = true
      return
    }
    loading.current = true
    void (async () => {
      try {
        do {
          loadAgain.current = false
          setAccount(await loadAccount())
        } while (loadAgain.current)
      } finally {
        loading.current = false
      }
    })()
  }, [])
  useEffect(() => {
    reloadAccount()
    // A load already under way serves the page coming back: it started just now.
    const stopListening = onPageShown(() => {
      if (!loading.current) reloadAccount()
    })
    const stopWatching = watchExtensionSession(reloadAccount)
    return () => {
      stopListening()
      stopWatching()
    }
  }, [reloadAccount])
  return { account, reloadAccount }
}
