/** Signing out from the site's pages (the header's menu, the dashboard's "Sign out everywhere"), then home. */
import { useNavigate } from "react-router"

import { useSession } from "~site-session/session-store"

export function useLogout() {
  const logout = useSession((state) => state.logout)
  const navigate = useNavigate()
  return async () => {
    const confirmedByServer = await logout({ navigate })
    // On a server failure the store itself sends the user to /login after a second.
    if (confirmedByServer) navigate("/")
  }
}
