/**
 * The site's session: who is signed in, token monitoring, the profile fetch after restore,
 * logout, cross-tab updates and the auth messages to the extension. Google sign-in goes through Firebase: its
 * ID token opens the session here, a Firebase user left from an earlier visit is exchanged on start, its ID token
 * is renewed every 10 minutes and logout signs Firebase out too; the SDK is loaded only in browsers that used it.
 *
 * Storage: the three items of SESSION_STORAGE_KEYS in the API client's storage (see ./api-client; localStorage
 * unless configured). The stored user is the validated `User` (userSchema), as JSON.
 *
 * Extension messages: WEBSITE_AUTH_SYNC on restore with a stored user, on every change of the stored user made
 * here (profile fetch, setUser) and after every token refresh of this tab's client; WEBSITE_AUTH_LOGIN after a
 * sign-in; WEBSITE_AUTH_LOGOUT after a logout or when the client ended the session. Changes made by another tab
 * are notified by that tab, so this tab only follows them (no duplicate message per change).
 */
import { toast } from "~ui/toast"
import { create } from "zustand"

import { ApiRequestError, INVALID_RESPONSE_CODE, type TokenStorage } from "~api/http-client"
import {
  EXTENSION_AUTH_STATUS_REQUEST,
  EXTENSION_LOGOUT_REQUEST,
  parseExtensionMessage,
  unknownMessageTypeError,
  websiteLoginMessage,
  websiteLogoutMessage,
  websiteSyncMessage,
  type WebsiteMessage
} from "~core/extension-messages"
import { LOGOUT_FAILURE_REDIRECT_MS, LOGOUT_FLAG_RESET_MS, PROFILE_FETCH_DELAY_MS } from "~core/limits"
import { extensionErrorAnswer, extensionSuccessAnswer, type ExtensionAnswer } from "~core/protocol"
import { SESSION_STORAGE_KEYS, userSchema, type User } from "~core/user"

import { getApiClient, getSessionStorage, onSessionCleared, onTokensRefreshed } from "./site-api"
import { notifyExtension } from "./extension-notifier"
import { firebaseWasUsed, forgetFirebaseUse, loadFirebaseSetup, markFirebaseUsed } from "./firebase-setup"
import { googlePopup } from "./google-popup"
import { createTokenMonitor, type TokenMonitor } from "./token-monitor"

export const LOGIN_PATH = "/api/auth/login"
export const GOOGLE_LOGIN_PATH = "/api/auth/google"
export const GOOGLE_ACCEPT_TERMS_PATH = "/api/auth/google/accept-terms"
export const LOGOUT_PATH = "/api/auth/logout"
export const PROFILE_PATH = "/api/auth/profile"
export const LOGIN_SUCCESS_MESSAGE = "Successfully logged in!"
export const LOGOUT_SUCCESS_MESSAGE = "Successfully logged out!"
export const LOGOUT_SERVER_FAILURE_MESSAGE = "Logout completed locally, but there was an issue with the server"
export const LOGOUT_ISSUES_PREFIX = "Logout completed with issues: "
export const LOGOUT_IDENTITY_SERVICE_ISSUE = "the Google sign-out failed"
export const LOGOUT_BACKEND_ISSUE = "the server logout failed"
/** The window event raised on EXTENSION_LOGOUT_REQUEST (a CustomEvent with detail `{ source: "extension" }`). */
export const WEBSITE_LOGOUT_EVENT = "website-logout"
/** Where a logout whose server call failed sends the user, after LOGOUT_FAILURE_REDIRECT_MS. */
export const LOGOUT_FAILURE_REDIRECT_PATH = "/login"

export type SessionStatus = "loading" | "loggedOut" | "loggedIn"
export type NavigateFn = (path: string) => void

/** The session part of a login, federated login or accept-terms answer. */
export interface SignInData {
  user: User
  token: string
  refreshToken?: string | null
}

export interface LogoutOptions {
  /** Used only when the server call fails: navigate("/login") after 1 s. On success the caller decides. */
  navigate?: NavigateFn
}

export interface SessionState {
  status: SessionStatus
  user: User | null
  /** True from the start of a logout until 2 s after it finished (the federated auto sign-in waits for it). */
  loggingOut: boolean
  /**
   * Restores the session kept in storage when it holds both a token and a valid stored user; then starts token
   * monitoring, fetches the profile 1 s later and sends WEBSITE_AUTH_SYNC. Without one, when this browser has used
   * Google sign-in before, stays "loading" while Firebase's signed-in user (if any) is exchanged for a session.
   * Also attaches the cross-tab listener (once). `storage` defaults to the API client's storage; pass no other one outside tests.
   */
  restore(storage?: TokenStorage): void
  /**
   * POST /api/auth/login, then as acceptSession. Failures reject with the client's ApiRequestError. A call while
   * one is running returns the running one's promise (duplicate submits are blocked).
   */
  login(email: string, password: string): Promise<User>
  /**
   * POST /api/auth/google with a Firebase ID token, then as acceptSession. TERMS_NOT_ACCEPTED (a new Google user)
   * rejects like every failure, with the client's ApiRequestError; the caller then asks for the terms.
   */
  googleLogin(idToken: string): Promise<User>
  /** POST /api/auth/google/accept-terms with the same ID token (creates the account), then as acceptSession. */
  acceptGoogleTerms(idToken: string): Promise<User>
  /** Opens a session from a sign-in answer (federated, accept-terms): store, monitor, notify, toast. */
  acceptSession(data: SignInData): User
  /**
   * Logs out. Resolves true when the server confirmed, false when only the local part was done
   * (error toast, and navigate("/login") after 1 s when `navigate` is given). Never rejects. A call while one is
   * running returns the running one's promise.
   */
  logout(options?: LogoutOptions): Promise<boolean>
  /** Replaces the signed-in user (e.g. after a profile PUT) in state and storage; ignored when signed out. */
  setUser(user: User): void
  /**
   * Fetches the profile now (as the fetch 1 s after restore does) and stores the user it answers, e.g. after a
   * subscription change so the header shows the new plan. Ignored when signed out; never rejects.
   */
  refreshProfile(): Promise<void>
}

type Timeout = ReturnType<typeof setTimeout>

/** Everything that is not React state: timers, the monitor, in-flight calls. */
const runtime = {
  monitor: null as TokenMonitor | null,
  profileTimer: null as Timeout | null,
  flagTimer: null as Timeout | null,
  redirectTimer: null as Timeout | null,
  loginInFlight: null as Promise<User> | null,
  logoutInFlight: null as Promise<boolean> | null,
  stopSync: null as (() => void) | null,
  /** Bumped whenever a session starts or ends, so a late profile answer cannot resurrect an old session. */
  generation: 0
}

const KEYS = SESSION_STORAGE_KEYS

export function readStoredUser(storage: Pick<Storage, "getItem">): User | null {
  const token = storage.getItem(KEYS.authToken)
  const rawUser = storage.getItem(KEYS.user)
  if (!token || !rawUser) return null
  try {
    const parsed = userSchema.safeParse(JSON.parse(rawUser))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

function invalidSignInAnswer(): ApiRequestError {
  return new ApiRequestError(200, {
    code: INVALID_RESPONSE_CODE,
    message: "The server sent an unexpected sign-in response. Please try again later."
  })
}

/** Checks a sign-in answer at run time: it comes from the network. */
function parseSignIn(data: unknown): { user: User; token: string; refreshToken: string | null } {
  if (typeof data !== "object" || data === null) throw invalidSignInAnswer()
  const { user, token, refreshToken } = data as Record<string, unknown>
  const parsedUser = userSchema.safeParse(user)
  if (!parsedUser.success || typeof token !== "string" || !token) throw invalidSignInAnswer()
  return { user: parsedUser.data, token, refreshToken: typeof refreshToken === "string" && refreshToken ? refreshToken : null }
}

function clearTimer(name: "profileTimer" | "flagTimer" | "redirectTimer"): void {
  const timer = runtime[name]
  if (timer) clearTimeout(timer)
  runtime[name] = null
}

function startMonitoring({ userSet }: { userSet: boolean }): void {
  runtime.monitor?.stop()
  const monitor = createTokenMonitor({
    getToken: () => getSessionStorage().getItem(KEYS.authToken),
    refresh: () => getApiClient().refreshSession(),
    providerRefresh: refreshFirebaseIdToken
  })
  runtime.monitor = monitor
  monitor.start()
  if (userSet) monitor.userSet()
}

/** Keeps the Firebase ID token of a Google session fresh; nothing (and no SDK download) for other sessions. */
async function refreshFirebaseIdToken(): Promise<void> {
  const popup = googlePopup()
  if (!popup || !firebaseWasUsed()) return
  const setup = await loadFirebaseSetup()
  if (setup) await popup.currentIdToken(setup, { forceRefresh: true })
}

/** Stops what belongs to the current session (monitor, pending profile fetch) and marks it over. */
function stopSessionWork(): void {
  runtime.generation += 1
  runtime.monitor?.stop()
  runtime.monitor = null
  clearTimer("profileTimer")
}

/** The auth state as the extension sees it: SYNC with the stored access token (never the refresh token), or LOGOUT. */
function currentAuthMessage(): WebsiteMessage {
  const { status, user } = useSession.getState()
  const storage = getSessionStorage()
  const authToken = storage.getItem(KEYS.authToken)
  if (status !== "loggedIn" || !user || !authToken) return websiteLogoutMessage()
  return websiteSyncMessage({ user, authToken })
}

function sendSync(): void {
  const message = currentAuthMessage()
  if (message.type !== "WEBSITE_AUTH_LOGOUT") void notifyExtension(message)
}

/** Stores and shows `user`; WEBSITE_AUTH_SYNC when the stored JSON changed. */
function commitUser(user: User): void {
  const storage = getSessionStorage()
  const json = JSON.stringify(user)
  const changed = storage.getItem(KEYS.user) !== json
  storage.setItem(KEYS.user, json)
  useSession.setState({ user, status: "loggedIn" })
  if (changed) sendSync()
}

function scheduleProfileFetch(): void {
  clearTimer("profileTimer")
  const generation = runtime.generation
  runtime.profileTimer = setTimeout(() => {
    runtime.profileTimer = null
    void fetchProfile(generation)
  }, PROFILE_FETCH_DELAY_MS)
}

async function fetchProfile(generation: number): Promise<void> {
  try {
    const data = await getApiClient().get<{ user?: unknown } | undefined>(PROFILE_PATH)
    const parsed = userSchema.safeParse(data?.user)
    if (!parsed.success) throw new Error("The profile answer has no valid user")
    // The session ended or changed while the profile was on its way.
    if (generation !== runtime.generation || useSession.getState().status !== "loggedIn") return
    commitUser(parsed.data)
  } catch (error) {
    console.warn("Could not fetch the profile", error)
  }
}

/** The local part of every session end: state, monitor, pending fetch. */
function endLocalSession(extra: Partial<SessionState> = {}): void {
  stopSessionWork()
  useSession.setState({ ...extra, user: null, status: "loggedOut" })
}

function clearStoredSession(storage: TokenStorage): void {
  storage.removeItem(KEYS.authToken)
  storage.removeItem(KEYS.refreshToken)
  storage.removeItem(KEYS.user)
  getApiClient().clearCache()
}

function openSession(data: unknown): User {
  const { user, token, refreshToken } = parseSignIn(data)
  const storage = getSessionStorage()
  clearTimer("redirectTimer")
  // Cached answers may belong to whoever was signed in before.
  getApiClient().clearCache()
  storage.setItem(KEYS.authToken, token)
  if (refreshToken) storage.setItem(KEYS.refreshToken, refreshToken)
  else storage.removeItem(KEYS.refreshToken)
  storage.setItem(KEYS.user, JSON.stringify(user))
  stopSessionWork()
  useSession.setState({ user, status: "loggedIn" })
  startSessionSync()
  startMonitoring({ userSet: true })
  void notifyExtension(websiteLoginMessage({ user, authToken: token }))
  toast.success(LOGIN_SUCCESS_MESSAGE)
  return user
}

/** A sign-in call whose answer opens the session; Google's also marks this browser as one that uses Firebase. */
function signInThrough(path: string, body: unknown, federated: boolean): Promise<User> {
  runtime.loginInFlight ??= (async () => {
    const user = openSession(await getApiClient().post<unknown>(path, body))
    if (federated) markFirebaseUsed()
    return user
  })().finally(() => {
    runtime.loginInFlight = null
  })
  return runtime.loginInFlight
}

/**
 * The start-up exchange: Firebase still has a signed-in user but there is no local session. Ends "loading" with
 * the session, or logged out when there is no identity, the server refuses it, or anything fails.
 */
async function exchangeFirebaseIdentity(generation: number): Promise<void> {
  const stillWaiting = () =>
    runtime.generation === generation && useSession.getState().status === "loading" && !useSession.getState().loggingOut
  try {
    const popup = googlePopup()
    const setup = popup ? await loadFirebaseSetup() : null
    const idToken = popup && setup ? await popup.currentIdToken(setup) : null
    // Nothing left to exchange: later starts need not download the SDK.
    if (!idToken) forgetFirebaseUse()
    else if (stillWaiting()) {
      const data = await getApiClient().post<unknown>(GOOGLE_LOGIN_PATH, { idToken })
      if (stillWaiting()) openSession(data)
    }
  } catch (error) {
    // The server refused this identity (no account yet, invalid token): retrying at every start would only
    // download the SDK for nothing. A rate limit or a network failure may pass, so those are tried again.
    if (error instanceof ApiRequestError && error.status >= 400 && error.status < 500 && error.status !== 429) forgetFirebaseUse()
    console.warn("Could not restore the Google session", error)
  }
  if (stillWaiting()) useSession.setState({ status: "loggedOut" })
}

/** Signs this browser out of Firebase; true when that worked. Forgets the use either way, so no later start signs the user back in. */
async function endFirebaseSession(): Promise<boolean> {
  forgetFirebaseUse()
  try {
    const popup = googlePopup()
    const setup = popup ? await loadFirebaseSetup() : null
    if (popup && setup) await popup.signOut(setup)
    return true
  } catch (error) {
    console.warn("The Google sign-out failed", error)
    return false
  }
}

async function runLogout(navigate: NavigateFn | undefined): Promise<boolean> {
  const storage = getSessionStorage()
  // Taken before clearing: the server call below must carry this session's bearer token.
  const token = storage.getItem(KEYS.authToken)
  const refreshToken = storage.getItem(KEYS.refreshToken)
  clearTimer("flagTimer")
  clearTimer("redirectTimer")

  // Mark logging out and clear the user; stop monitoring; clear tokens; notify the extension.
  endLocalSession({ loggingOut: true })
  clearStoredSession(storage)
  void notifyExtension(websiteLogoutMessage())

  const firebaseSignedOut = firebaseWasUsed() ? endFirebaseSession() : Promise.resolve(true)
  let serverConfirmed = true
  if (token || refreshToken) {
    try {
      // The captured token goes as the bearer (storage is already cleared); the refresh token lets the server end
      // the session even when the access token has already expired.
      await getApiClient().post(LOGOUT_PATH, refreshToken ? { refreshToken } : undefined, { auth: token ? { bearer: token } : "none" })
    } catch (error) {
      serverConfirmed = false
      console.warn("The server logout failed", error)
    }
  }

  const issues = [...((await firebaseSignedOut) ? [] : [LOGOUT_IDENTITY_SERVICE_ISSUE]), ...(serverConfirmed ? [] : [LOGOUT_BACKEND_ISSUE])]
  if (issues.length === 0) toast.success(LOGOUT_SUCCESS_MESSAGE)
  // Only the server failed: the spec's own text for that case.
  else if (issues.length === 1 && !serverConfirmed) toast.error(LOGOUT_SERVER_FAILURE_MESSAGE)
  else toast.error(`${LOGOUT_ISSUES_PREFIX}${issues.join("; ")}`)
  if (!serverConfirmed && navigate) {
    runtime.redirectTimer = setTimeout(() => {
      runtime.redirectTimer = null
      navigate(LOGOUT_FAILURE_REDIRECT_PATH)
    }, LOGOUT_FAILURE_REDIRECT_MS)
  }
  runtime.flagTimer = setTimeout(() => {
    runtime.flagTimer = null
    useSession.setState({ loggingOut: false })
  }, LOGOUT_FLAG_RESET_MS)
  return serverConfirmed
}

export const useSession = create<SessionState>(() => ({
  status: "loading",
  user: null,
  loggingOut: false,

  restore(storage = getSessionStorage()) {
    const user = readStoredUser(storage)
    startSessionSync()
    stopSessionWork()
    const exchange = !user && !useSession.getState().loggingOut && firebaseWasUsed()
    useSession.setState({ user, status: user ? "loggedIn" : exchange ? "loading" : "loggedOut" })
    if (exchange) void exchangeFirebaseIdentity(runtime.generation)
    if (!user) return
    startMonitoring({ userSet: true })
    scheduleProfileFetch()
    sendSync()
  },

  login(email, password) {
    return signInThrough(LOGIN_PATH, { email, password }, false)
  },

  googleLogin(idToken) {
    return signInThrough(GOOGLE_LOGIN_PATH, { idToken }, true)
  },

  acceptGoogleTerms(idToken) {
    return signInThrough(GOOGLE_ACCEPT_TERMS_PATH, { idToken, termsAccepted: true, privacyPolicyAccepted: true }, true)
  },

  acceptSession(data) {
    return openSession(data)
  },

  logout({ navigate }: LogoutOptions = {}) {
    runtime.logoutInFlight ??= runLogout(navigate).finally(() => {
      runtime.logoutInFlight = null
    })
    return runtime.logoutInFlight
  },

  setUser(user) {
    if (useSession.getState().status !== "loggedIn" || !getSessionStorage().getItem(KEYS.authToken)) return
    commitUser(user)
  },

  refreshProfile() {
    if (useSession.getState().status !== "loggedIn") return Promise.resolve()
    return fetchProfile(runtime.generation)
  }
}))

/** The client's refresh stored new tokens. */
onTokensRefreshed(() => {
  if (useSession.getState().status === "loggedIn") {
    sendSync()
    return
  }
  // A refresh that was in flight when this tab logged out has stored the tokens of a session that is over.
  const storage = getSessionStorage()
  if (!readStoredUser(storage)) {
    storage.removeItem(KEYS.authToken)
    storage.removeItem(KEYS.refreshToken)
  }
})

/** The client cleared the session: no refresh token, or the server refused the refresh. */
onSessionCleared(() => {
  const { status } = useSession.getState()
  if (status === "loggedOut") return
  endLocalSession()
  if (status === "loggedIn") void notifyExtension(websiteLogoutMessage())
})

function handleStorageEvent(event: StorageEvent): void {
  const storage = getSessionStorage()
  if (event.storageArea && event.storageArea !== storage) return
  // key null: another tab called clear().
  if (event.key !== null && event.key !== KEYS.authToken && event.key !== KEYS.user) return
  const user = readStoredUser(storage)
  const state = useSession.getState()
  if (!user) {
    if (state.status !== "loggedIn") return
    endLocalSession()
    getApiClient().clearCache()
    return
  }
  if (state.status !== "loggedIn") {
    // Another tab signed in; it already runs the refresh that follows a sign-in.
    stopSessionWork()
    useSession.setState({ user, status: "loggedIn" })
    startMonitoring({ userSet: false })
    return
  }
  // A new token needs nothing: the monitor reads the stored token at every check.
  if (JSON.stringify(user) !== JSON.stringify(state.user)) useSession.setState({ user })
}

/** Follows the session changes of other tabs (storage events). Attaches once; returns the detach function. */
export function startSessionSync(): () => void {
  if (runtime.stopSync) return runtime.stopSync
  if (typeof window === "undefined") return () => {}
  const listener = (event: StorageEvent) => handleStorageEvent(event)
  window.addEventListener("storage", listener)
  const stop = () => {
    window.removeEventListener("storage", listener)
    if (runtime.stopSync === stop) runtime.stopSync = null
  }
  runtime.stopSync = stop
  return stop
}

/**
 * Answers a message from the extension; one whose type lacks the EXTENSION_ prefix or that has no numeric
 * timestamp gets an error answer. EXTENSION_AUTH_STATUS_REQUEST: sends WEBSITE_AUTH_SYNC (WEBSITE_AUTH_LOGOUT
 * when signed out). EXTENSION_LOGOUT_REQUEST: logs out when a session exists and raises the window event
 * "website-logout". Never throws.
 */
export async function handleExtensionMessage(raw: unknown): Promise<ExtensionAnswer> {
  const parsed = parseExtensionMessage(raw)
  if (!parsed.ok) return extensionErrorAnswer(parsed.error)
  const { type } = parsed.message
  try {
    switch (type) {
      case EXTENSION_AUTH_STATUS_REQUEST:
        await notifyExtension(currentAuthMessage())
        return extensionSuccessAnswer()
      case EXTENSION_LOGOUT_REQUEST: {
        const hasSession = useSession.getState().status === "loggedIn" || Boolean(getSessionStorage().getItem(KEYS.authToken))
        // The local part of the logout runs synchronously, so listeners of the event see the session gone.
        const done = hasSession ? useSession.getState().logout() : Promise.resolve(true)
        if (typeof window !== "undefined") window.dispatchEvent(new CustomEvent(WEBSITE_LOGOUT_EVENT, { detail: { source: "extension" } }))
        await done
        return extensionSuccessAnswer()
      }
      default:
        return extensionErrorAnswer(unknownMessageTypeError(type))
    }
  } catch (error) {
    return extensionErrorAnswer(error)
  }
}

/** Stops every timer and listener of this module without touching state or storage (tests, hot reload). */
export function teardownSession(): void {
  stopSessionWork()
  clearTimer("flagTimer")
  clearTimer("redirectTimer")
  runtime.stopSync?.()
  runtime.loginInFlight = null
  runtime.logoutInFlight = null
}
