/**
 * What an admin does to an account from its page, each behind a confirmation (ConfirmDialog): change the role, disable
 * or enable, resend the verification link, end every session, and set a monthly request limit (the account's, for
 * Enterprise; the organisation's pool, for a member). A refusal is shown inside the dialog in the server's words
 * (the last admin, an address verified already).
 */
import { useId, useState } from "react"

import type { AdminUserDetail } from "~core/admin/admin-users"
import { attempt } from "~site/shared/failure-text"
import { ConfirmDialog } from "~ui/ConfirmDialog"
import { buttonStyles } from "~ui/styles"
import { toast } from "~ui/toast"

import { endSessions, resendVerification, setOrganizationLimit, setUserLimit, updateUser, useUsersChanged } from "./admin-users-requests"

type User = AdminUserDetail["user"]

export function RoleAction({ user }: { user: User }) {
  const changed = useUsersChanged(user.id)
  const next = user.role === "admin" ? "user" : "admin"
  return (
    <ConfirmDialog
      trigger={{ label: next === "admin" ? "Make admin" : "Remove admin role", className: buttonStyles.secondary }}
      title={next === "admin" ? `Make ${user.email} an admin?` : `Remove ${user.email}'s admin role?`}
      description={
        next === "admin"
          ? "They can then open the admin panel: see every account, change roles, disable accounts and set limits."
          : "They lose the admin panel at their next request. The last enabled admin cannot lose the role."
      }
      keepLabel="Cancel"
      confirm={{ label: next === "admin" ? "Make admin" : "Remove admin role", busyLabel: "Changing..." }}
      onConfirm={(close) =>
        attempt(async () => {
          await changed(await updateUser(user.id, { role: next }))
          close()
          toast.success(next === "admin" ? `${user.email} is now an admin.` : `${user.email} is no longer an admin.`)
        })
      }
    />
  )
}

export function DisableAction({ user }: { user: User }) {
  const changed = useUsersChanged(user.id)
  const disable = !user.disabled
  return (
    <ConfirmDialog
      trigger={{ label: disable ? "Disable account" : "Enable account", className: disable ? buttonStyles.danger : buttonStyles.secondary }}
      title={disable ? `Disable ${user.email}?` : `Enable ${user.email}?`}
      description={
        disable
          ? "They are signed out everywhere at once, the extension included, their API keys stop working, and signing in tells them the account is disabled. You can enable it again."
          : "They can sign in again; their API keys work again. Sessions that were ended stay ended."
      }
      keepLabel="Cancel"
      confirm={{ label: disable ? "Disable account" : "Enable account", busyLabel: disable ? "Disabling..." : "Enabling...", className: disable ? buttonStyles.danger : buttonStyles.primary }}
      onConfirm={(close) =>
        attempt(async () => {
          await changed(await updateUser(user.id, { disabled: disable }))
          close()
          toast.success(disable ? `${user.email} is disabled.` : `${user.email} is enabled.`)
        })
      }
    />
  )
}

export function ResendVerificationAction({ user }: { user: User }) {
  const changed = useUsersChanged(user.id)
  return (
    <ConfirmDialog
      trigger={{ label: "Resend verification e-mail", className: buttonStyles.secondary }}
      title={`Send ${user.email} a new verification link?`}
      description="An e-mail with a new link goes to the address; the links sent before keep working until they expire."
      keepLabel="Cancel"
      confirm={{ label: "Send link", busyLabel: "Sending..." }}
      onConfirm={(close) =>
        attempt(async () => {
          const sent = await resendVerification(user.id)
          await changed()
          close()
          toast.success(`A verification link is on its way to ${sent.email}.`)
        })
      }
    />
  )
}

export function EndSessionsAction({ user }: { user: User }) {
  const changed = useUsersChanged(user.id)
  return (
    <ConfirmDialog
      trigger={{ label: "End all sessions", className: buttonStyles.secondary }}
      title={`Sign ${user.email} out everywhere?`}
      description="Every session ends at once, the website's and the extension's: they must sign in again. Their API keys keep working."
      keepLabel="Cancel"
      confirm={{ label: "End all sessions", busyLabel: "Ending..." }}
      onConfirm={(close) =>
        attempt(async () => {
          const { ended } = await endSessions(user.id)
          await changed()
          close()
          toast.success(ended === 1 ? "1 session ended." : `${ended} sessions ended.`)
        })
      }
    />
  )
}

/** The limit typed: a positive whole number, or nothing for unlimited; a message for anything else. */
export function readLimit(text: string): { limit: number | null } | { problem: string } {
  const trimmed = text.trim()
  if (trimmed === "") return { limit: null }
  if (!/^\d+$/.test(trimmed) || Number(trimmed) < 1 || Number(trimmed) > 10_000_000) return { problem: "Enter a whole number from 1 to 10,000,000, or leave the field empty for unlimited." }
  return { limit: Number(trimmed) }
}

const limitWords = (limit: number | null) => (limit === null ? "unlimited" : `${limit.toLocaleString("en-US")} requests a month`)

interface LimitFormProps {
  /** The account whose page shows the form: refreshed once the limit is set. */
  userId: string
  label: string
  current: number | null
  /** Whose limit it is, as the confirmation names them: the account's address, the organisation's name. */
  subject: string
  /** Sends the new limit (null: unlimited) to the server. */
  save: (limit: number | null) => Promise<unknown>
}

/** A monthly request limit, the account's or its organisation's pool: the field, and the confirmation that sets it. */
function LimitForm({ userId, label, current, subject, save }: LimitFormProps) {
  const changed = useUsersChanged(userId)
  const id = useId()
  const [text, setText] = useState(current === null ? "" : String(current))
  const read = readLimit(text)
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-gray-700">
        {label}
      </label>
      <div className="mt-1 flex flex-wrap items-center gap-2">
        <input
          id={id}
          inputMode="numeric"
          value={text}
          onChange={(event) => setText(event.target.value)}
          placeholder="Unlimited"
          aria-describedby={`${id}-hint`}
          className="w-48 rounded-lg border border-gray-300 px-3 py-2 text-sm focus-ring"
        />
        <ConfirmDialog
          trigger={{ label: "Set limit", className: buttonStyles.secondary, accessibleName: `Set limit: ${label}` }}
          title={`Set ${subject}'s monthly limit?`}
          description={"limit" in read ? `From ${limitWords(current)} to ${limitWords(read.limit)}; it applies from the next request.` : read.problem}
          keepLabel="Cancel"
          confirmDisabled={!("limit" in read)}
          confirm={{ label: "Set limit", busyLabel: "Saving..." }}
          onConfirm={(close) =>
            "limit" in read
              ? attempt(async () => {
                  await save(read.limit)
                  await changed()
                  close()
                  toast.success(`The monthly limit of ${subject} is now ${limitWords(read.limit)}.`)
                })
              : Promise.resolve(read.problem)
          }
        />
      </div>
      <p id={`${id}-hint`} className="mt-1 text-xs text-gray-600">
        Now: {limitWords(current)}. Leave empty for unlimited.
      </p>
    </div>
  )
}

export function UserLimitForm({ user }: { user: User }) {
  return <LimitForm userId={user.id} label="Monthly request limit" current={user.requestLimit} subject={user.email} save={(limit) => setUserLimit(user.id, limit)} />
}

export function OrganizationLimitForm({ userId, organization }: { userId: string; organization: { id: string; name: string; limit: number | null } }) {
  return <LimitForm userId={userId} label="Organisation's monthly pool" current={organization.limit} subject={organization.name} save={(limit) => setOrganizationLimit(organization.id, limit)} />
}
