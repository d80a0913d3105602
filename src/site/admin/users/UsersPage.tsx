/**
 * /admin/users: find an account by a part of its address or name, filter by plan, role, verification and disabled,
 * order by creation or last sign-in (newest first), 50 a page. The search and filters live in the page's address, so
 * a list can be shared or reloaded. A table at desktop width; at phone width each row reads as a card (the columns
 * other than the account fold into its cell).
 */
import { useState, type FormEvent } from "react"
import { Link, useSearchParams } from "react-router"

import { ADMIN_USER_SORTS, ADMIN_USERS_PAGE_SIZE, ADMIN_USERS_QUERY_MAX_LENGTH, type AdminUserSort, type AdminUserSummary } from "~core/admin/admin-users"
import { longDate } from "~core/format"
import { getPlan, PLAN_IDS, type PlanId } from "~core/billing/plans"
import { ROLES, type Role } from "~core/user"
import { DataTable, type DataColumn } from "~site/shared/DataTable"
import { failureText } from "~site/shared/failure-text"
import { Pager } from "~ui/Pager"
import { CompactSelect, CompactTextField } from "~ui/fields"
import { Notice } from "~ui/Notice"
import { Spinner } from "~ui/Spinner"
import { buttonStyles } from "~ui/styles"
import { PageTitle } from "~site/shared/PageTitle"

import { useAdminUsers, type UserFilters } from "./admin-users-requests"
import { ROLE_NAMES, StatusBadges } from "./user-badges"

const oneOf = <T extends string>(values: readonly T[], value: string | null): T | "" => (values.includes(value as T) ? (value as T) : "")
const YES_NO = ["true", "false"] as const

/** The filters the address names; anything it names wrongly is "any", never an error. */
function filtersOf(params: URLSearchParams): UserFilters {
  const page = Number(params.get("page"))
  return {
    query: params.get("query") ?? "",
    plan: oneOf(PLAN_IDS, params.get("plan")),
    role: oneOf(ROLES, params.get("role")),
    verified: oneOf(YES_NO, params.get("verified")),
    disabled: oneOf(YES_NO, params.get("disabled")),
    sort: oneOf(ADMIN_USER_SORTS, params.get("sort")) || "created",
    page: Number.isInteger(page) && page > 1 ? page : 1
  }
}

const SORT_LABELS: Record<AdminUserSort, string> = { created: "Newest accounts", lastSignIn: "Latest sign-in" }
const signedIn = (user: AdminUserSummary) => (user.lastSignInAt ? longDate(user.lastSignInAt) : "Never")

/** The account's cell carries the other columns at phone width, where they are hidden. */
function AccountCell({ user }: { user: AdminUserSummary }) {
  return (
    <>
      <Link to={`/admin/users/${encodeURIComponent(user.id)}`} className={`${buttonStyles.link} break-words`}>
        {user.name || user.email}
      </Link>
      <div className="break-all text-gray-600">{user.email}</div>
      <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-2 text-xs text-gray-600 md:hidden">
        <dt>Plan, role</dt>
        <dd>
          {getPlan(user.plan).name}, {ROLE_NAMES[user.role]}
        </dd>
        <dt>Joined</dt>
        <dd>{longDate(user.createdAt)}</dd>
        <dt>Signed in</dt>
        <dd>{signedIn(user)}</dd>
      </dl>
      <div className="mt-1 md:hidden">
        <StatusBadges user={user} />
      </div>
    </>
  )
}

const USER_COLUMNS: readonly DataColumn<AdminUserSummary>[] = [
  { header: "Account", cell: (user) => <AccountCell user={user} /> },
  { header: "Plan", from: "md", cell: (user) => getPlan(user.plan).name },
  { header: "Role", from: "md", cell: (user) => ROLE_NAMES[user.role] },
  { header: "Status", from: "md", cell: (user) => <StatusBadges user={user} /> },
  { header: "Joined", from: "md", cellClassName: "whitespace-nowrap", cell: (user) => longDate(user.createdAt) },
  { header: "Last sign-in", from: "md", cellClassName: "whitespace-nowrap", cell: signedIn }
]

function SearchForm({ filters, onChange }: { filters: UserFilters; onChange: (next: Partial<UserFilters>) => void }) {
  const [query, setQuery] = useState(filters.query)
  const submit = (event: FormEvent) => {
    event.preventDefault()
    onChange({ query })
  }
  return (
    <form role="search" aria-label="Find accounts" onSubmit={submit} className="space-y-3 rounded-2xl border border-gray-200 bg-white p-4 shadow-sm">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <div className="flex-1">
          <CompactTextField label="Search by e-mail or name" type="search" value={query} maxLength={ADMIN_USERS_QUERY_MAX_LENGTH} onChange={(event) => setQuery(event.target.value)} />
        </div>
        <button type="submit" className={buttonStyles.primary}>
          Search
        </button>
      </div>
      <div className="grid grid-cols-2 gap-2 lg:grid-cols-5">
        <CompactSelect label="Plan" value={filters.plan} onChange={(event) => onChange({ plan: event.target.value as PlanId | "" })}>
          <option value="">Any plan</option>
          {PLAN_IDS.map((plan) => (
            <option key={plan} value={plan}>
              {getPlan(plan).name}
            </option>
          ))}
        </CompactSelect>
        <CompactSelect label="Role" value={filters.role} onChange={(event) => onChange({ role: event.target.value as Role | "" })}>
          <option value="">Any role</option>
          {ROLES.map((role) => (
            <option key={role} value={role}>
              {ROLE_NAMES[role]}
            </option>
          ))}
        </CompactSelect>
        <CompactSelect label="Verified" value={filters.verified} onChange={(event) => onChange({ verified: event.target.value as UserFilters["verified"] })}>
          <option value="">Any</option>
          <option value="true">Verified</option>
          <option value="false">Not verified</option>
        </CompactSelect>
        <CompactSelect label="Disabled" value={filters.disabled} onChange={(event) => onChange({ disabled: event.target.value as UserFilters["disabled"] })}>
          <option value="">Any</option>
          <option value="false">Enabled</option>
          <option value="true">Disabled</option>
        </CompactSelect>
        <CompactSelect label="Order" value={filters.sort} onChange={(event) => onChange({ sort: event.target.value as AdminUserSort })}>
          {ADMIN_USER_SORTS.map((sort) => (
            <option key={sort} value={sort}>
              {SORT_LABELS[sort]}
            </option>
          ))}
        </CompactSelect>
      </div>
    </form>
  )
}

export default function UsersPage() {
  const [params, setParams] = useSearchParams()
  const filters = filtersOf(params)
  const users = useAdminUsers(filters)
  // A changed search or filter starts again at page 1.
  const change = (next: Partial<UserFilters>) => {
    const merged = { ...filters, page: 1, ...next }
    const search = new URLSearchParams()
    for (const [key, value] of Object.entries(merged)) if (value !== "" && !(key === "page" && value === 1) && !(key === "sort" && value === "created")) search.set(key, String(value))
    setParams(search)
  }
  const pages = users.data ? Math.max(1, Math.ceil(users.data.total / ADMIN_USERS_PAGE_SIZE)) : 1

  return (
    <div className="mx-auto max-w-7xl space-y-6 px-4 py-10 sm:px-6 lg:px-8">
      <PageTitle title="Users" />
      <header>
        <p>
          <Link to="/admin" className={buttonStyles.link}>
            Admin
          </Link>
        </p>
        <h1 className="text-3xl font-bold tracking-tight">Users</h1>
        <p className="mt-1 text-gray-600">Find an account to see its plan, usage and sessions, change its role or disable it.</p>
      </header>
      <SearchForm key={filters.query} filters={filters} onChange={change} />
      <section aria-label="Accounts" className="rounded-2xl border border-gray-200 bg-white p-4 shadow-sm">
        {users.isPending && <Spinner label="Loading accounts" />}
        {users.isError && <Notice>{failureText(users.error)}</Notice>}
        {users.data && (
          <>
            <p className="text-sm text-gray-600" aria-live="polite">
              {users.data.total === 1 ? "1 account" : `${users.data.total.toLocaleString("en-US")} accounts`}
              {users.data.total > 0 && `, page ${users.data.page} of ${pages}`}
            </p>
            <DataTable
              caption={`Accounts, ${SORT_LABELS[filters.sort].toLowerCase()} first`}
              columns={USER_COLUMNS}
              rows={users.data.users}
              rowKey={(user) => user.id}
              empty="No account matches this search."
            />
            <Pager page={filters.page} pages={pages} onPage={(page) => change({ ...filters, page })} />
          </>
        )}
      </section>
    </div>
  )
}
