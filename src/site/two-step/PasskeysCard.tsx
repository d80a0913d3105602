/**
 * The dashboard's *Passkeys*: the account's passkeys (name, when added, when last used), adding one (a name, the
 * password or a recent sign-in as proof, then the browser's own passkey dialog) and removing one with the same proof.
 * A passkey signs in on its own and counts as the account's second factor.
 */
import { useQueryClient } from "@tanstack/react-query"
import { useState, type FormEvent } from "react"

import { longDate } from "~core/format"
import { PASSKEY_NAME_MAX, type Passkey } from "~core/passkeys"
import { PasswordField, TextField } from "~ui/fields"
import { Notice } from "~ui/Notice"
import { Spinner } from "~ui/Spinner"
import { buttonStyles } from "~ui/styles"
import { failureText } from "~site/shared/failure-text"
import { passkeyFailureText, passkeysSupported } from "~site/shared/passkey-ceremony"
import { useFormMutation } from "~site/shared/use-form-mutation"

import { addPasskey, passkeyKeys, removePasskey, usePasskeys } from "./passkeys-requests"
import { twoStepKeys } from "./two-step-requests"

interface ProofProps {
  needsPassword: boolean
  /** Refetches the list and the second-factor status after a change. */
  onChanged: (said: string) => void
}

function AddPasskey({ needsPassword, onChanged, onCancel }: ProofProps & { onCancel: () => void }) {
  const [name, setName] = useState("")
  const [password, setPassword] = useState("")
  const [error, setError] = useState<string | null>(null)
  const adding = useFormMutation({
    mutationFn: () => addPasskey(name.trim(), needsPassword ? password : undefined),
    onSuccess: (passkey) => onChanged(`Passkey '${passkey.name}' added. You can now sign in with it.`),
    onError: (failure) => setError(passkeyFailureText(failure))
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (adding.isRunning()) return
    setError(null)
    if (needsPassword && !password) return setError("Enter your current password first")
    adding.mutate()
  }
  return (
    <form className="space-y-3" onSubmit={submit} noValidate aria-label="Add a passkey" aria-busy={adding.isPending}>
      <TextField label="Name (optional)" placeholder="Laptop, phone, security key" maxLength={PASSKEY_NAME_MAX} value={name} onChange={(event) => setName(event.target.value)} autoFocus />
      {needsPassword && <PasswordField label="Current password" toggleKey="k" autoComplete="current-password" value={password} onChange={(event) => setPassword(event.target.value)} />}
      {error && <Notice>{error}</Notice>}
      {adding.isPending && <p role="status">Follow your browser's passkey dialog...</p>}
      <div className="flex flex-wrap gap-2">
        <button type="submit" className={buttonStyles.primary} disabled={adding.isPending}>
          {adding.isPending ? "Creating..." : "Create passkey"}
        </button>
        <button type="button" className={buttonStyles.secondary} onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  )
}

function PasskeyRow({ passkey, needsPassword, onChanged }: ProofProps & { passkey: Passkey }) {
  const [confirming, setConfirming] = useState(false)
  const [password, setPassword] = useState("")
  const [error, setError] = useState<string | null>(null)
  const removing = useFormMutation({
    mutationFn: () => removePasskey(passkey.id, needsPassword ? password : undefined),
    onSuccess: () => onChanged(`Passkey '${passkey.name}' removed.`),
    onError: (failure) => setError(failureText(failure))
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (removing.isRunning()) return
    setError(null)
    if (needsPassword && !password) return setError("Enter your current password")
    removing.mutate()
  }
  return (
    <li className="space-y-2 py-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div>
          <p className="font-medium text-gray-900">{passkey.name}</p>
          <p className="text-gray-600">
            Added {longDate(passkey.createdAt)} · {passkey.lastUsedAt ? `last used ${longDate(passkey.lastUsedAt)}` : "not used yet"}
          </p>
        </div>
        {!confirming && (
          <button type="button" className={buttonStyles.secondary} onClick={() => setConfirming(true)} aria-label={`Remove passkey ${passkey.name}`}>
            Remove
          </button>
        )}
      </div>
      {confirming && (
        <form className="space-y-3" onSubmit={submit} noValidate aria-label={`Remove passkey ${passkey.name}`}>
          <p>It will no longer sign in to your account.</p>
          {needsPassword && <PasswordField label="Current password" toggleKey="r" autoComplete="current-password" value={password} onChange={(event) => setPassword(event.target.value)} autoFocus />}
          {error && <Notice>{error}</Notice>}
          <div className="flex flex-wrap gap-2">
            <button type="submit" className={buttonStyles.danger} disabled={removing.isPending}>
              {removing.isPending ? "Removing..." : "Remove passkey"}
            </button>
            <button type="button" className={buttonStyles.secondary} onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </div>
        </form>
      )}
    </li>
  )
}

export function PasskeysCard({ needsPassword }: { needsPassword: boolean }) {
  const queryClient = useQueryClient()
  const passkeys = usePasskeys()
  const [adding, setAdding] = useState(false)
  const [said, setSaid] = useState<string | null>(null)
  const onChanged = (text: string) => {
    setAdding(false)
    setSaid(text)
    void queryClient.invalidateQueries({ queryKey: passkeyKeys.list })
    void queryClient.invalidateQueries({ queryKey: twoStepKeys.status })
  }
  if (passkeys.isPending) return <Spinner />
  if (passkeys.isError) return <Notice>{failureText(passkeys.error)}</Notice>
  const list = passkeys.data.passkeys
  return (
    <div className="space-y-3 text-sm">
      <p>A passkey signs you in with your device's fingerprint, face or screen lock: no password and no code. It also counts as two-step sign-in.</p>
      {said && (
        <Notice tone="success">{said}</Notice>
      )}
      {list.length > 0 ? (
        <ul className="divide-y divide-gray-200" aria-label="Your passkeys">
          {list.map((passkey) => (
            <PasskeyRow key={passkey.id} passkey={passkey} needsPassword={needsPassword} onChanged={onChanged} />
          ))}
        </ul>
      ) : (
        <p className="text-gray-600">No passkeys yet.</p>
      )}
      {!passkeysSupported() ? (
        <Notice tone="info">This browser cannot create passkeys. Use a recent Chrome, Edge, Firefox or Safari.</Notice>
      ) : adding ? (
        <AddPasskey needsPassword={needsPassword} onChanged={onChanged} onCancel={() => setAdding(false)} />
      ) : (
        <button
          type="button"
          className={buttonStyles.primary}
          onClick={() => {
            setSaid(null)
            setAdding(true)
          }}
        >
          Add a passkey
        </button>
      )}
    </div>
  )
}
