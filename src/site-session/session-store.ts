/**
 * The site's session: who is signed in, and opening, restoring and ending a session (token monitoring, the
 * profile fetch after restore, logout). Beside it, each with one job: ./firebase-session (the Google identity's
 * exchange and sign-out), ./session-sync (following other tabs and the API client), ./extension-answers (the
 * answers to the extension's requests); the calls themselves are in ./account-requests.
 *
 * Storage: the three items of SESSION_STORAGE_KEYS in the API client's storage (see ./site-client; localStorage
 * unless configured). The stored user is the validated `User` (userSchema), as JSON.
 *
 * Extension messages: WEBSITE_AUTH_SYNC on restore with a stored user, on every change of the stored user made
 * here (profile fetch, setUser) and after every token refresh of this tab's client; WEBSITE_AUTH_LOGIN after a
 * sign-in; WEBSITE_AUTH_LOGOUT after a logout or when the client ended the session.
 */
import { toast } from "~ui/toast"
import { create } from "zustand"

import { ApiRequestError, INVALID_RESPONSE_CODE, type TokenStorage } from "~http/http-client"
import { websiteLoginMessage, websiteLogoutMessage, websiteSyncMessage, type WebsiteMessage } from "~core/extension-messages"
import { SESSION_STORAGE_KEYS, userSchema, type User } from "~core/user"
import { SECOND_MS } from "~core/time"
import { mfaRequiredAnswerSchema, type MfaMethod } from "~core/two-step"

import * as accountApi from "./account-requests"
import { notifyExtension } from "./extension-notifier"
import { endFirebaseSession, exchangeFirebaseIdentity, refreshFirebaseIdToken } from "./firebase-session"
import { firebaseWasUsed, markFirebaseUsed } from "./firebase-setup"
import { getApiClient, getSessionStorage } from "./site-client"
import { createTokenMonitor, type TokenMonitor } from "./token-monitor"

export const LOGOUT_FLAG_RESET_MS = 2 * SECOND_MS

export const LOGOUT_FAILURE_REDIRECT_MS = 1 * SECOND_MS

export const PROFILE_FETCH_DELAY_MS = 1 * SECOND_MS

export const LOGIN_SUCCESS_MESSAGE = "Successfully logged in!"
export const LOGOUT_SUCCESS_MESSAGE = "Successfully logged out!"
export const LOGOUT_SERVER_FAILURE_MESSAGE = "Logout completed locally, but there was an issue with the server"
export const LOGOUT_ISSUES_PREFIX = "Logout completed with issues: "
export const LOGOUT_IDENTITY_SERVICE_ISSUE = "the Google sign-out failed"
export const LOGOUT_BACKEND_ISSUE = "the server logout failed"
/** Where a logout whose server call failed sends the user, after LOGOUT_FAILURE_REDIRECT_MS. */
export const LOGOUT_FAILURE_REDIRECT_PATH = "/login"

export type SessionStatus = "loading" | "loggedOut" | "loggedIn"

/** A sign-in whose first step passed, for an account with a second factor: no session until completeSecondStep. */
export class SecondStepRequired extends Error {
  override readonly name = "SecondStepRequired"
  constructor(readonly mfaToken: string, readonly methods: readonly MfaMethod[]) {
    super("Enter the 6-digit code from your authenticator app")
  }
}
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
   * `storage` defaults to the API client's storage; pass no other one outside tests.
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
  /** POST /api/auth/mfa/verify for the sign-in that rejected with SecondStepRequired, then as acceptSession. */
  completeSecondStep(mfaToken: string, proof: { code: string } | { recoveryCode: string }): Promise<User>
  /** POST /api/auth/passkeys/sign-in with the browser's passkey answer (and the waiting second step's token), then as acceptSession. */
  passkeyLogin(response: unknown, mfaToken?: string): Promise<User>
  /** POST /api/auth/sso/complete with the code the organisation's identity provider sign-in left, then as acceptSession. */
  ssoLogin(code: string): Promise<User>
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

/** What is not React state: timers, the monitor, in-flight calls. */
const runtime = {
  monitor: null as TokenMonitor | null,
  profileTimer: null as Timeout | null,
  flagTimer: null as Timeout | null,
  redirectTimer: null as Timeout | null,
  loginInFlight: null as Promise<User> | null,
  logoutInFlight: null as Promise<boolean> | null,
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

const invalidSignInAnswer = () => new ApiRequestError(200, { code: INVALID_RESPONSE_CODE, message: "The server sent an unexpected sign-in response. Please try again later." })

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

/** Stops what belongs to the current session (monitor, pending profile fetch) and marks it over. */
function stopSessionWork(): void {
  runtime.generation += 1
  runtime.monitor?.stop()
  runtime.monitor = null
  clearTimer("profileTimer")
}

/** The auth state as the extension sees it: SYNC with the stored access token (never the refresh token), or LOGOUT. */
export function currentAuthMessage(): WebsiteMessage {
  const { status, user } = useSession.getState()
  const storage = getSessionStorage()
  const authToken = storage.getItem(KEYS.authToken)
  if (status !== "loggedIn" || !user || !authToken) return websiteLogoutMessage()
  return websiteSyncMessage({ user, authToken })
}

/** Tells the extension the current session (WEBSITE_AUTH_SYNC); nothing while signed out. */
export function syncExtension(): void {
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
  if (changed) syncExtension()
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
    const data: unknown = await accountApi.fetchProfileForStore()
    const parsed = userSchema.safeParse((data as { user?: unknown } | undefined)?.user)
    if (!parsed.success) throw new Error("The profile answer has no valid user")
    // The session ended or changed while the profile was on its way.
    if (generation !== runtime.generation || useSession.getState().status !== "loggedIn") return
    commitUser(parsed.data)
  } catch (error) {
    console.warn("Could not fetch the profile", error)
  }
}

/** The local part of every session end: state, monitor, pending fetch. Also what ./session-sync does when another tab or the API client ended the session. */
export function endLocalSession(extra: Partial<SessionState> = {}): void {
  stopSessionWork()
  useSession.setState({ ...extra, user: null, status: "loggedOut" })
}

/** Another tab signed in (see ./session-sync): show its user and monitor its token; that tab runs the refresh that follows a sign-in. */
export function adoptSession(user: User): void {
  stopSessionWork()
  useSession.setState({ user, status: "loggedIn" })
  startMonitoring({ userSet: false })
}

function clearStoredSession(storage: TokenStorage): void {
  storage.removeItem(KEYS.authToken)
  storage.removeItem(KEYS.refreshToken)
  storage.removeItem(KEYS.user)
}

function openSession(data: unknown): User {
  const { user, token, refreshToken } = parseSignIn(data)
  const storage = getSessionStorage()
  clearTimer("redirectTimer")
  storage.setItem(KEYS.authToken, token)
  if (refreshToken) storage.setItem(KEYS.refreshToken, refreshToken)
  else storage.removeItem(KEYS.refreshToken)
  storage.setItem(KEYS.user, JSON.stringify(user))
  stopSessionWork()
  useSession.setState({ user, status: "loggedIn" })
  startMonitoring({ userSet: true })
  void notifyExtension(websiteLoginMessage({ user, authToken: token }))
  toast.success(LOGIN_SUCCESS_MESSAGE)
  return user
}

/**
 * A sign-in call whose answer opens the session; Google's also marks this browser as one that uses Firebase. An
 * account with a second factor answers mfaRequired instead: that rejects with SecondStepRequired, for the form to ask.
 */
function signInThrough(call: () => Promise<unknown>, federated: boolean): Promise<User> {
  runtime.loginInFlight ??= (async () => {
    const answer = await call()
    const secondStep = mfaRequiredAnswerSchema.safeParse(answer)
    // Not marked as a Firebase browser: a later start could not open the session by itself, it needs the code.
    if (secondStep.success) throw new SecondStepRequired(secondStep.data.mfaToken, secondStep.data.methods)
    const user = openSession(answer)
    if (federated) markFirebaseUsed()
    return user
  })().finally(() => {
    runtime.loginInFlight = null
  })
  return runtime.loginInFlight
}

/** Ends "loading" with the session Firebase's user is exchanged for, or logged out when there is none. */
async function exchangeOnStart(generation: number): Promise<void> {
  const stillWaiting = () =>
    runtime.generation === generation && useSession.getState().status === "loading" && !useSession.getState().loggingOut
  await exchangeFirebaseIdentity({ stillWaiting, open: (answer) => openSession(answer) })
  if (stillWaiting()) useSession.setState({ status: "loggedOut" })
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
      // The captured tokens go with the call: storage is already cleared.
      await accountApi.endServerSession(token, refreshToken)
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
    stopSessionWork()
    const exchange = !user && !useSession.getState().loggingOut && firebaseWasUsed()
    useSession.setState({ user, status: user ? "loggedIn" : exchange ? "loading" : "loggedOut" })
    if (exchange) void exchangeOnStart(runtime.generation)
    if (!user) return
    startMonitoring({ userSet: true })
    scheduleProfileFetch()
    syncExtension()
  },

  login(email, password) {
    return signInThrough(() => accountApi.signInWithPassword(email, password), false)
  },

  googleLogin(idToken) {
    return signInThrough(() => accountApi.signInWithGoogle(idToken), true)
  },

  acceptGoogleTerms(idToken) {
    return signInThrough(() => accountApi.acceptGoogleTerms(idToken), true)
  },

  completeSecondStep(mfaToken, proof) {
    return signInThrough(() => accountApi.verifySecondStep(mfaToken, proof), false)
  },

  passkeyLogin(response, mfaToken) {
    return signInThrough(() => accountApi.signInWithPasskey(response, mfaToken), false)
  },
  ssoLogin: (code) => signInThrough(() => accountApi.completeSsoSignIn(code), false),

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

/** Stops every timer of this module without touching state or storage (tests, hot reload). */
export function teardownSession(): void {
  stopSessionWork()
  clearTimer("flagTimer")
  clearTimer("redirectTimer")
  runtime.loginInFlight = null
  runtime.logoutInFlight = null
}
