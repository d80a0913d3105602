/**
 * The account's queries that several site features read (the calls are site-session's account-requests.ts): the profile,
 * the ways to sign in, the password policy's public view and the server's Firebase settings, under `accountKeys`.
 */
import { useQuery } from "@tanstack/react-query"

import { fetchAuthStatus, fetchPasswordPolicy, fetchProfile } from "~site-session/account-requests"
import { loadFirebaseSetup } from "~site-session/firebase-setup"
import { useSession } from "~site-session/session-store"

export const accountKeys = {
  all: ["account"] as const,
  /** The account as the server has it now; an organisation's change refreshes it (its membership). */
  profile: ["account", "profile"] as const,
  authStatus: ["account", "auth-status"] as const,
  passwordPolicy: ["account", "password-policy"] as const,
  firebaseSetup: ["account", "firebase-setup"] as const
}

/** The signed-in account's e-mail, or "" while signed out (the queries keyed by it then wait). */
export const useAccountEmail = () => useSession((state) => (state.status === "loggedIn" ? (state.user?.email ?? "") : ""))

export const useProfile = () => useQuery({ queryKey: accountKeys.profile, queryFn: fetchProfile })

/** How the account signs in (a password, Google, both). */
export const useAuthStatus = () => useQuery({ queryKey: accountKeys.authStatus, queryFn: fetchAuthStatus })

/** The rules a new password is shown against; asked afresh each time a form with a password opens. */
export const usePasswordPolicy = () => useQuery({ queryKey: accountKeys.passwordPolicy, queryFn: fetchPasswordPolicy, staleTime: 0 })

/** The server's Firebase settings for the Google buttons; null data means Google sign-in is not configured. */
export const useFirebaseSetup = () => useQuery({ queryKey: accountKeys.firebaseSetup, queryFn: loadFirebaseSetup, staleTime: Infinity })
