/**
 * /admin/users/:id: an account's page. Profile, sign-in methods, plan and subscription, this month's usage, the live
 * sessions and the organisation, with the admin's actions (UserActions.tsx), each behind a confirmation. Everything the
 * account wrote (its name, its address) is rendered as text.
 */
import type { ReactNode } from "react"
import { Link, useParams } from "react-router"

import type { AdminUserDetail } from "~core/admin/admin-users"
import { longDate } from "~core/format"
import { getPlan } from "~core/billing/plans"
import { failureText } from "~site/shared/failure-text"
import { Notice } from "~ui/Notice"
import { Spinner } from "~ui/Spinner"
import { buttonStyles } from "~ui/styles"
import { PageTitle } from "~site/shared/PageTitle"

import { useAdminOrganization, useAdminUser } from "./admin-users-requests"
import { DisableAction, EndSessionsAction, OrganizationLimitForm, ResendVerificationAction, RoleAction, UserLimitForm } from "./UserActions"
import { ROLE_NAMES, StatusBadges } from "./user-badges"

const METHOD_NAMES = { email: "E-mail and password", google: "Google" } as const
const STATUS_NAMES: Record<string, string> = { trialing: "Trial", active: "Active", past_due: "Payment overdue", unpaid: "Unpaid", paused: "Paused", canceled: "Cancelled" }
const dateOrNever = (value: string | null) => (value ? longDate(value) : "Never")
/** "2026-11" as "November 2026". */
const monthName = (month: string) => new Date(`${month}-01T00:00:00Z`).toLocaleDateString("en-GB", { month: "long", year: "numeric", timeZone: "UTC" })
const dateTime = (value: string) => new Date(value).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }) + " UTC"

function Card({ title, children, actions }: { title: string; children: ReactNode; actions?: ReactNode }) {
  return (
    <section aria-label={title} className="space-y-3 rounded-2xl border border-gray-200 bg-white p-5 shadow-sm">
      <h2 className="text-lg font-semibold">{title}</h2>
      {children}
      {actions && <div className="flex flex-wrap gap-2 border-t border-gray-100 pt-3">{actions}</div>}
    </section>
  )
}

function Facts({ rows }: { rows: Array<[string, ReactNode]> }) {
  return (
    <dl className="grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-[max-content_1fr]">
      {rows.map(([name, value]) => (
        <div key={name} className="contents">
          <dt className="font-medium text-gray-600">{name}</dt>
          <dd className="mb-2 break-words sm:mb-0">{value}</dd>
        </div>
      ))}
    </dl>
  )
}

function Subscription({ detail }: { detail: AdminUserDetail }) {
  const { subscription } = detail
  return (
    <Card title="Plan and subscription">
      <Facts
        rows={[
          ["Plan", getPlan(detail.user.plan).name],
          ["Status", STATUS_NAMES[subscription.status] ?? subscription.status],
          ["Billing", subscription.interval === "year" ? "Yearly" : subscription.interval === "month" ? "Monthly" : "None"],
          ...(subscription.currentPeriodEnd ? [[subscription.cancelAtPeriodEnd ? "Ends" : "Renews", longDate(subscription.currentPeriodEnd)] as [string, ReactNode]] : []),
          ...(subscription.trialEnd ? [["Trial ends", longDate(subscription.trialEnd)] as [string, ReactNode]] : []),
          ...(subscription.scheduledPlan ? [["Changes to", getPlan(subscription.scheduledPlan).name] as [string, ReactNode]] : []),
          ["Payments", subscription.mode === "stripe" ? "Stripe" : "Test mode"]
        ]}
      />
    </Card>
  )
}

function Usage({ detail }: { detail: AdminUserDetail }) {
  const { usage, user } = detail
  const enterprise = user.plan === "enterprise"
  return (
    <Card title="This month's usage">
      <p className="text-sm">
        <span className="text-2xl font-semibold">{usage.used.toLocaleString("en-US")}</span> of {usage.limit === null ? "unlimited" : usage.limit.toLocaleString("en-US")} AI requests in{" "}
        {monthName(usage.month)}
        {usage.source === "pool" && detail.organization ? `, from ${detail.organization.name}'s pool` : ""}.
      </p>
      {enterprise ? (
        <UserLimitForm key={user.requestLimit ?? "none"} user={user} />
      ) : (
        <p className="text-sm text-gray-600">A monthly limit of its own can be set for an Enterprise account; this account keeps its plan's quota.</p>
      )}
    </Card>
  )
}

function Organization({ detail }: { detail: AdminUserDetail }) {
  const organization = useAdminOrganization(detail.organization?.id ?? null)
  if (!detail.organization) {
    return (
      <Card title="Organisation">
        <p className="text-sm text-gray-600">Not a member of an organisation.</p>
      </Card>
    )
  }
  return (
    <Card title="Organisation">
      <Facts
        rows={[
          ["Name", detail.organization.name],
          ["Role", detail.organization.role === "owner" ? "Owner" : detail.organization.role === "admin" ? "Admin" : "Member"],
          ...(organization.data
            ? ([
                ["Subscriber", organization.data.subscriber.email],
                ["Members", String(organization.data.members.length)],
                ["Pool this month", `${organization.data.pool.used.toLocaleString("en-US")} of ${organization.data.pool.limit === null ? "unlimited" : organization.data.pool.limit.toLocaleString("en-US")}`]
              ] as Array<[string, ReactNode]>)
            : [])
        ]}
      />
      {organization.isError && <Notice>{failureText(organization.error)}</Notice>}
      {organization.data && (
        <OrganizationLimitForm
          key={organization.data.pool.limit ?? "none"}
          userId={detail.user.id}
          organization={{ id: organization.data.id, name: organization.data.name, limit: organization.data.pool.limit }}
        />
      )}
    </Card>
  )
}

function Sessions({ detail }: { detail: AdminUserDetail }) {
  return (
    <Card title="Sessions" actions={detail.sessions.length > 0 ? <EndSessionsAction user={detail.user} /> : undefined}>
      {detail.sessions.length === 0 ? (
        <p className="text-sm text-gray-600">No live session: the account is signed out everywhere.</p>
      ) : (
        <ul className="divide-y divide-gray-100 text-sm">
          {detail.sessions.map((session) => (
            <li key={session.id} className="flex flex-col gap-1 py-2 sm:flex-row sm:justify-between">
              <span className="font-medium">{session.client === "extension" ? "Extension" : "Website"}</span>
              <span className="text-gray-600">
                Signed in {dateTime(session.createdAt)}; last used {dateTime(session.lastUsedAt)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  )
}

function Account({ detail }: { detail: AdminUserDetail }) {
  const { user } = detail
  return (
    <>
      <header className="space-y-2">
        <p>
          <Link to="/admin/users" className={buttonStyles.link}>
            All users
          </Link>
        </p>
        <h1 className="break-words text-3xl font-bold tracking-tight">{user.name || user.email}</h1>
        <p className="break-all text-gray-600">{user.email}</p>
        <StatusBadges user={user} />
        {user.disabled && <Notice>This account is disabled: it cannot sign in, and its API keys are refused.</Notice>}
      </header>
      <div className="grid gap-6 lg:grid-cols-2">
        <Card
          title="Profile"
          actions={
            <>
              <RoleAction user={user} />
              <DisableAction user={user} />
              {!user.verified && <ResendVerificationAction user={user} />}
            </>
          }
        >
          <Facts
            rows={[
              ["Name", user.name],
              ["E-mail", user.email],
              ["Role", ROLE_NAMES[user.role]],
              ["Verified", user.verified ? "Yes" : "No"],
              ["Joined", longDate(user.createdAt)],
              ["Last sign-in", dateOrNever(user.lastSignInAt)],
              ...(user.disabledAt ? [["Disabled", longDate(user.disabledAt)] as [string, ReactNode]] : []),
              ["Sign-in methods", detail.signInMethods.length ? detail.signInMethods.map((method) => METHOD_NAMES[method]).join(", ") : "None"]
            ]}
          />
        </Card>
        <Subscription detail={detail} />
        <Usage detail={detail} />
        <Organization detail={detail} />
        <div className="lg:col-span-2">
          <Sessions detail={detail} />
        </div>
      </div>
    </>
  )
}

export default function UserPage() {
  const { id = "" } = useParams()
  const user = useAdminUser(id)
  return (
    <div className="mx-auto max-w-6xl space-y-6 px-4 py-10 sm:px-6 lg:px-8">
      <PageTitle title={user.data ? `${user.data.user.email} · Users` : "User"} />
      {user.isPending && <Spinner label="Loading the account" />}
      {user.isError && (
        <div className="space-y-4">
          <h1 className="text-3xl font-bold tracking-tight">User</h1>
          <Notice>{failureText(user.error)}</Notice>
          <Link to="/admin/users" className={buttonStyles.link}>
            All users
          </Link>
        </div>
      )}
      {user.data && <Account detail={user.data} />}
    </div>
  )
}
