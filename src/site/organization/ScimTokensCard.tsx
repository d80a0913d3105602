/**
 * Provisioning with SCIM: the address to give the identity provider, and the organisation's SCIM tokens. The owner
 * creates one (its secret shown once, with a copy button) and revokes them after confirming; admins read the list.
 */
import { useState } from "react"

import { longDate } from "~core/format"
import type { Organization } from "~core/organizations"
import { MAX_SCIM_TOKENS } from "~core/scim"
import { attempt, failureText } from "~site/shared/failure-text"
import { ShownOnce } from "~site/shared/ShownOnce"
import { ConfirmDialog } from "~ui/ConfirmDialog"
import { Notice } from "~ui/Notice"
import { Spinner } from "~ui/Spinner"
import { buttonStyles } from "~ui/styles"
import { toast } from "~ui/toast"
import { useFormMutation } from "~site/shared/use-form-mutation"

import { createScimToken, revokeScimToken, useScimTokens, useScimTokensChanged } from "./scim-requests"

const smallButton = `${buttonStyles.secondary} !px-3 !py-1.5 whitespace-nowrap text-xs`

function RevokeToken({ id, createdAt }: { id: string; createdAt: string }) {
  const changed = useScimTokensChanged()
  const revoking = useFormMutation({ mutationFn: () => revokeScimToken(id) })
  return (
    <ConfirmDialog
      trigger={{ label: "Revoke", className: smallButton, accessibleName: `Revoke the token created on ${longDate(createdAt)}` }}
      title="Revoke this SCIM token?"
      description="Your identity provider can no longer provision people with it, from the next request on. Give it another token first if it still needs one."
      confirm={{ label: "Revoke token", busyLabel: "Revoking...", className: buttonStyles.danger }}
      onConfirm={(close) =>
        attempt(revoking.mutateAsync, async () => {
          close()
          toast.success("The token is revoked.")
          await changed()
        })
      }
    />
  )
}

export function ScimTokensCard({ organization }: { organization: Organization }) {
  const owner = organization.role === "owner"
  const tokens = useScimTokens()
  const changed = useScimTokensChanged()
  const [created, setCreated] = useState<string | null>(null)
  const creating = useFormMutation({
    mutationFn: createScimToken,
    onSuccess: (answer) => {
      setCreated(answer.token)
      void changed()
    }
  })
  if (tokens.isPending) return <Spinner label="Loading SCIM tokens" />
  if (tokens.isError) return <Notice>{failureText(tokens.error)}</Notice>
  return (
    <div className="space-y-4 text-sm">
      <p className="text-gray-700">Your identity provider creates, updates and suspends your members here with SCIM 2.0. People it adds sign in with single sign-on.</p>
      <div className="rounded-xl bg-gray-50 p-3">
        <p className="font-medium text-gray-700">SCIM base address</p>
        <code className="mt-1 block select-all break-all font-mono text-xs text-gray-900">{`${window.location.origin}/scim/v2`}</code>
      </div>
      {tokens.data.length === 0 ? (
        <p className="text-gray-600">No SCIM token yet.</p>
      ) : (
        <ul className="divide-y divide-gray-200 rounded-xl border border-gray-200" aria-label="SCIM tokens">
          {tokens.data.map((token) => (
            <li key={token.id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3">
              <div className="min-w-0">
                <p className="font-medium">Created on {longDate(token.createdAt)}{token.createdBy ? ` by ${token.createdBy}` : ""}</p>
                <p className="text-gray-600">{token.lastUsedAt ? `Last used on ${longDate(token.lastUsedAt)}` : "Not used yet"}</p>
              </div>
              {owner && <RevokeToken id={token.id} createdAt={token.createdAt} />}
            </li>
          ))}
        </ul>
      )}
      {created && <ShownOnce title="Your new SCIM token." value={created} copyLabel="Copy token" />}
      {owner ? (
        <div className="space-y-2">
          <button type="button" className={buttonStyles.primary} disabled={creating.isPending || tokens.data.length >= MAX_SCIM_TOKENS} onClick={() => !creating.isRunning() && creating.mutate()}>
            {creating.isPending ? "Creating..." : "Create token"}
          </button>
          <p className="text-gray-600">Up to {MAX_SCIM_TOKENS} tokens, so that you can replace one without a gap.</p>
          {creating.isError && <Notice>{failureText(creating.error)}</Notice>}
        </div>
      ) : (
        <p className="text-gray-600">The owner creates and revokes tokens.</p>
      )}
    </div>
  )
}
