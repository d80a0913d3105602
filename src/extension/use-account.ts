import { useCallback, useEffect, useState } from "react"

import { loadAccount, type AccountState } from "./account"
import { watchExtensionSession } from "./extension-session"

/** The account shown in the popup and the side panel, reloaded whenever the session changes in any extension context. */
export function useAccount(): { account: AccountState; reloadAccount: () => void } {
  const [account, setAccount] = useState<AccountState>({ kind: "checking" })
  const reloadAccount = useCallback(() => {
    void loadAccount().then(setAccount)
  }, [])
  useEffect(() => {
    reloadAccount()
    return watchExtensionSession(reloadAccount)
  }, [reloadAccount])
  return { account, reloadAccount }
}
