import { create } from "zustand"

import { SESSION_STORAGE_KEYS, userSchema, type User } from "~core/user"

export type SessionStatus = "loading" | "loggedOut" | "loggedIn"

interface SessionState {
  status: SessionStatus
  user: User | null
  /** Restores the session kept in local storage: a token and a valid stored user (spec section 4). */
  restore(storage?: Storage): void
}

export function readStoredUser(storage: Storage): User | null {
  const token = storage.getItem(SESSION_STORAGE_KEYS.authToken)
  const rawUser = storage.getItem(SESSION_STORAGE_KEYS.user)
  if (!token || !rawUser) return null
  try {
    const parsed = userSchema.safeParse(JSON.parse(rawUser))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

export const useSession = create<SessionState>((set) => ({
  status: "loading",
  user: null,
  restore(storage = window.localStorage) {
    const user = readStoredUser(storage)
    set({ user, status: user ? "loggedIn" : "loggedOut" })
  }
}))
