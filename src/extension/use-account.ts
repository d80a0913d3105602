import { useCallback, useEffect, useState } from "react"

import { loadAccount, type AccountState } from "./account"
import { watchExtensionSession } from "./extension-session"

/**
 * The account shown in the popup and the side panel, reloaded whenever the session changes in any extension context,
 * and when the page is shown or focused again: a plan bought on the site in the meantime shows its quota at once.
 */
export function useAccount(): { account: AccountState; reloadAccount: () => void } {
  const [account, setAccount] = useState<AccountState>({ kind: "checking" })
  const reloadAccount = useCallback(() => {
    void loadAccount().then(setAccount)
  }, [])
  useEffect(() => {
    reloadAccount()
    const reloadWhenShown = () => {
      if (document.visibilityState === "visible") reloadAccount()
    }
    document.addEventListener("visibilitychange", reloadWhenShown)
    window.addEventListener("focus", reloadAccount)
    const stopWatching = watchExtensionSession(reloadAccount)
    return () => {
      document.removeEventListener("visibilitychange", reloadWhenShown)
      window.removeEventListener("focus", reloadAccount)
      stopWatching()
    }
  }, [reloadAccount])
  return { account, reloadAccount }
}
