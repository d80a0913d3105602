import { useQueryClient } from "@tanstack/react-query"
import { useState, type ComponentType, type ReactNode } from "react"
import { Link, useSearchParams } from "react-router"

import { countOf, longDate } from "~core/format"
import { useSession } from "~site-session/session-store"
import { DAY_MS } from "~core/time"
import { getPlan } from "~core/billing/plans"
import { planIdOfUser } from "~core/user"
import type { Subscription } from "~core/billing/billing"
import { accountKeys, useAuthStatus, useProfile } from "~site/shared/account-queries"
import { billingErrorMessage, useStoredPlanFollows, useSubscription } from "~site/shared/billing/billing-requests"
import { effectivePlanId, hasPaidSubscription } from "~site/shared/billing/subscription-view"
import { membershipOf, ROLE_LABELS } from "~site/shared/membership"
import { TWO_STEP_SECTION_ID } from "~site/shared/navigation"
import { LoadFailure } from "~site/shared/LoadFailure"
import { PageTitle } from "~site/shared/PageTitle"
import { Notice } from "~ui/Notice"
import { Spinner } from "~ui/Spinner"
import { buttonStyles } from "~ui/styles"

import { AddEmailAuthForm } from "./AddEmailAuthForm"
import { DeleteAccountDialog } from "./DeleteAccountDialog"
import { RemoveSignInMethodDialog } from "./RemoveSignInMethodDialog"
import { LinkGoogleButton } from "./LinkGoogleButton"
import { SignOutEverywhereDialog } from "./SignOutEverywhereDialog"
import { SubscriptionCard } from "./SubscriptionCard"

/**
 * The cards of other features the dashboard shows. The app composes them in (src/site/DashboardRoute.tsx): a feature
 * imports no other but through src/site/shared/ (eslint.config.js).
 */
export interface DashboardCards {
  ApiKeysCard: ComponentType<{ hasApiAccess: boolean; needsPassword: boolean }>
  WebhooksCard: ComponentType
  TwoStepCard: ComponentType<{ needsPassword: boolean }>
  PasskeysCard: ComponentType<{ needsPassword: boolean }>
}

/** After a payment, how often and how many times the record is asked again while it does not show it yet (Stripe's webhook may lag). */
const CONFIRM_POLL_MS = 2000
const CONFIRM_POLLS = 30

/** The thanks after a payment or a plan change, once the record shows the paid plan. */
function thanksFor(subscription: Subscription): string {
  const plan = getPlan(subscription.plan)
  if (subscription.scheduledPlan && subscription.currentPeriodEnd) {
    return `Thank you! Your plan changes to ${getPlan(subscription.scheduledPlan).name} on ${longDate(subscription.currentPeriodEnd)}.`
  }
  return `Thank you! You are now on the ${plan.name} plan.`
}

function Card({ id, title, children, className = "" }: { id?: string; title: string; children: ReactNode; className?: string }) {
  return (
    <section id={id} aria-label={title} className={`rounded-2xl border border-gray-200 bg-white p-6 shadow-sm ${className}`}>
      <h2 className="text-lg font-semibold">{title}</h2>
      <div className="mt-4">{children}</div>
    </section>
  )
}

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-2xl border border-gray-200 bg-white p-5 shadow-sm">
      <dt className="text-sm text-gray-500">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold">{value}</dd>
    </div>
  )
}

/** The record shows the paid plan a payment was for. */
const isConfirmed = (record: Subscription | undefined): record is Subscription => record !== undefined && hasPaidSubscription(record)

export function DashboardPage({ cards: { ApiKeysCard, WebhooksCard, TwoStepCard, PasskeysCard } }: { cards: DashboardCards }) {
  const storedUser = useSession((state) => state.user)
  const [params] = useSearchParams()
  const queryClient = useQueryClient()
  const profile = useProfile()
  const authStatus = useAuthStatus()
  const [openedAt] = useState(() => Date.now())
  const paymentDone = params.get("subscription") === "success"
  const subscription = useSubscription({
    refetchInterval: (data, fetches) => (paymentDone && !isConfirmed(data) && fetches < CONFIRM_POLLS ? CONFIRM_POLL_MS : false)
  })
  const record = subscription.data
  useStoredPlanFollows(record)

  if (!storedUser) return <Spinner />
  const user = profile.data?.user
  // The profile's when it came, else the stored user's (kept from the last sign-in or profile).
  const membership = membershipOf(user ?? storedUser)
  const name = user?.name ?? storedUser.name
  const plan = getPlan(record ? effectivePlanId(record) : planIdOfUser(user ?? storedUser))
  const methods = authStatus.data?.providers ?? []
  const refreshSignInMethods = () => void queryClient.invalidateQueries({ queryKey: accountKeys.authStatus })
  const accountAgeDays = user ? Math.max(0, Math.floor((openedAt - Date.parse(user.createdAt)) / DAY_MS)) : null

  return (
    <div className="mx-auto max-w-6xl space-y-8 px-4 py-10 sm:px-6 lg:px-8">
      <PageTitle title="Dashboard" />
      <header>
        <h1 className="text-3xl font-bold tracking-tight">Dashboard</h1>
        <p className="mt-1 text-gray-600">Welcome back, {name}.</p>
        {membership && (
          <p className="mt-1 text-sm text-gray-700" data-testid="membership">
            Member of{" "}
            <Link to="/organization" className={buttonStyles.link}>
              {membership.name}
            </Link>{" "}
            ({ROLE_LABELS[membership.role]})
          </p>
        )}
      </header>

      {paymentDone && isConfirmed(record) && <Notice tone="success">{thanksFor(record)}</Notice>}
      {paymentDone && !isConfirmed(record) && !subscription.isError && (
        <Notice tone="info">We are confirming your payment. Your plan shows here as soon as it is confirmed.</Notice>
      )}

      <dl className="grid gap-4 sm:grid-cols-3">
        <Stat label="Current plan" value={plan.name} />
        <Stat label="Member for" value={accountAgeDays === null ? "…" : countOf(accountAgeDays, "day", "days")} />
        <Stat label="Sign-in methods" value={methods.length ? methods.map((method) => (method === "email" ? "Email" : "Google")).join(" + ") : "…"} />
      </dl>

      <div className="grid gap-6 lg:grid-cols-3">
        <Card title="Account information" className="lg:col-span-2">
          <dl className="grid gap-4 text-sm sm:grid-cols-2">
            <div>
              <dt className="text-gray-500">Name</dt>
              <dd className="font-medium">{name}</dd>
            </div>
            <div>
              <dt className="text-gray-500">Email</dt>
              <dd className="font-medium">{storedUser.email}</dd>
            </div>
            <div>
              <dt className="text-gray-500">Role</dt>
              <dd className="font-medium">{storedUser.role === "admin" ? "Admin" : "User"}</dd>
            </div>
            <div>
              <dt className="text-gray-500">Member since</dt>
              <dd className="font-medium">{user ? longDate(user.createdAt) : "…"}</dd>
            </div>
          </dl>
        </Card>

        <Card title="Subscription">
          {record ? (
            <SubscriptionCard subscription={record} receivedAt={subscription.dataUpdatedAt} />
          ) : subscription.isError ? (
            <LoadFailure subject="your subscription" query={subscription} reason={billingErrorMessage} />
          ) : (
            <Spinner />
          )}
        </Card>
      </div>

      {plan.id !== "free" && !user?.organization && (
        <Card title="Webhooks">
          <WebhooksCard />
        </Card>
      )}

      <Card title="API keys">
        <ApiKeysCard hasApiAccess={plan.id !== "free"} needsPassword={authStatus.data?.hasEmailAuth ?? true} />
      </Card>

      <div className="grid gap-6 lg:grid-cols-2">
        <Card title="Quick actions">
          <ul className="grid gap-3 sm:grid-cols-2">
            <li>
              <Link to="/image-query" className={`${buttonStyles.secondary} w-full`}>
                Open Image Query AI
              </Link>
            </li>
            <li>
              <Link to="/organization" className={`${buttonStyles.secondary} w-full`}>
                {membership ? "Your organisation" : "Teams"}
              </Link>
            </li>
            <li>
              <Link to="/pricing" className={`${buttonStyles.secondary} w-full`}>
                Compare plans
              </Link>
            </li>
            <li>
              <Link to="/help" className={`${buttonStyles.secondary} w-full`}>
                Help Center
              </Link>
            </li>
            <li>
              <Link to={{ pathname: "/", hash: "#feedback" }} className={`${buttonStyles.secondary} w-full`}>
                Send feedback
              </Link>
            </li>
          </ul>
        </Card>

        <Card title="Recent activity">
          <ul className="space-y-3 text-sm">
            {user ? (
              <>
                <li>Account created on {longDate(user.createdAt)}</li>
                {user.emailVerified && <li>Email address verified</li>}
                <li>Signed in on this device</li>
              </>
            ) : (
              <li className="text-gray-500">Loading…</li>
            )}
          </ul>
        </Card>
      </div>

      <Card title="Sign-in and security">
        {authStatus.isPending && <Spinner />}
        {authStatus.data && (
          <div className="space-y-4 text-sm">
            {authStatus.data.hasEmailAuth && (
              <div className="flex flex-wrap items-center justify-between gap-3">
                <p>You sign in with your email address and a password.</p>
                <div className="flex flex-wrap gap-2">
                  <Link to="/change-password" className={buttonStyles.secondary}>
                    Change password
                  </Link>
                  {authStatus.data.hasGoogleAuth && <RemoveSignInMethodDialog method="email" onRemoved={refreshSignInMethods} />}
                </div>
              </div>
            )}
            {authStatus.data.hasEmailAuth && authStatus.data.hasGoogleAuth && (
              <div className="flex flex-wrap items-center justify-between gap-3">
                <p>You also sign in with Google.</p>
                <RemoveSignInMethodDialog method="google" onRemoved={refreshSignInMethods} />
              </div>
            )}
            {authStatus.data.hasEmailAuth && !authStatus.data.hasGoogleAuth && (
              <div className="flex flex-wrap items-center justify-between gap-3">
                <p>Link a Google account to sign in with it too.</p>
                <LinkGoogleButton onLinked={refreshSignInMethods} />
              </div>
            )}
            {!authStatus.data.hasEmailAuth && authStatus.data.hasGoogleAuth && (
              <div className="space-y-3">
                <p>You sign in with Google only. Add email authentication to sign in with a password as well.</p>
                <AddEmailAuthForm email={storedUser.email} onLinked={refreshSignInMethods} />
              </div>
            )}
          </div>
        )}
        <div className="mt-4 flex flex-wrap items-center justify-between gap-3 border-t border-gray-200 pt-4 text-sm">
          <p>Signed in somewhere you should not be? End every session of your account, the extension&apos;s included.</p>
          <SignOutEverywhereDialog />
        </div>
      </Card>

      <Card id={TWO_STEP_SECTION_ID} title="Two-step sign-in">
        <TwoStepCard needsPassword={authStatus.data?.hasEmailAuth ?? true} />
      </Card>

      <Card title="Passkeys">
        <PasskeysCard needsPassword={authStatus.data?.hasEmailAuth ?? true} />
      </Card>

      {storedUser.role === "admin" && (
        <Card title="Admin panel">
          <p className="text-sm text-gray-600">Manage the password policy and user feedback.</p>
          <Link to="/admin" className={`${buttonStyles.primary} mt-4`}>
            Open admin panel
          </Link>
        </Card>
      )}

      <Card title="Danger zone">
        <div className="flex flex-wrap items-center justify-between gap-3 text-sm">
          <p>Delete your account and all its data. This cannot be undone.</p>
          <DeleteAccountDialog email={storedUser.email} />
        </div>
      </Card>
    </div>
  )
}
