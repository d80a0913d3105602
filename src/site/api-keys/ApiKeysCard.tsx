/**
 * The dashboard's *API keys* (Pro and Enterprise): create a key (a name, and the password of an account that has
 * one), copy it the one time it is shown, with a ready curl call on this site's own origin; the active keys with
 * their last use, each revocable after a confirmation; the keys' calls of the last 30 days (ApiUsage.tsx). A Free
 * account sees what the feature is and how to get it.
 */
import { useQueryClient } from "@tanstack/react-query"
import { useState, type FormEvent } from "react"
import { Link } from "react-router"

import { API_KEY_NAME_MAX_LENGTH, MAX_ACTIVE_API_KEYS, type CreatedApiKey } from "~core/api-keys"
import { longDate } from "~core/format"
import { attempt, failureText } from "~site/shared/failure-text"
import { copyText } from "~ui/clipboard"
import { ConfirmDialog } from "~ui/ConfirmDialog"
import { PasswordField, TextField } from "~ui/fields"
import { Notice } from "~ui/Notice"
import { Spinner } from "~ui/Spinner"
import { buttonStyles } from "~ui/styles"
import { ProofMessage } from "~site/shared/ProofRefusal"
import { RowList } from "~site/shared/RowList"
import { useFormMutation } from "~site/shared/use-form-mutation"

import { apiKeysKeys, createApiKey, revokeApiKey, useApiKeys } from "./api-keys-requests"
import { ApiUsage } from "./ApiUsage"

/** The key just made: shown once, with Copy and a call to try it. */
function NewKey({ created, onDone }: { created: CreatedApiKey; onDone: () => void }) {
  const [copied, setCopied] = useState<boolean | null>(null)
  // The call a script makes most: the text of an image, uploaded.
  const curl = `curl -H "Authorization: Bearer ${created.key}" -F image=@picture.png ${window.location.origin}/api/v1/ocr`
  return (
    <div className="space-y-3 rounded-xl border border-green-200 bg-green-50 p-4 text-sm">
      <p className="font-semibold text-green-900">Your new key “{created.name}”. Copy it now: it is not shown again.</p>
      <div className="flex flex-wrap items-center gap-2">
        <code data-testid="new-api-key" className="min-w-0 flex-1 break-all rounded-md bg-white px-3 py-2 font-mono text-xs text-gray-900 ring-1 ring-green-200">
          {created.key}
        </code>
        <button type="button" className={buttonStyles.secondary} onClick={() => void copyText(created.key).then(setCopied)}>
          Copy key
        </button>
      </div>
      {copied !== null && <p role="status">{copied ? "Copied." : "Your browser did not let us copy: select the key and copy it yourself."}</p>}
      <p className="text-gray-700">Try it:</p>
      <pre className="overflow-x-auto whitespace-pre-wrap break-all rounded-md bg-gray-900 p-3 font-mono text-xs text-gray-100">{curl}</pre>
      <button type="button" className={buttonStyles.link} onClick={onDone}>
        I have copied it
      </button>
    </div>
  )
}

function CreateKeyForm({ needsPassword, onCreated }: { needsPassword: boolean; onCreated: (created: CreatedApiKey) => void }) {
  const [name, setName] = useState("")
  const [password, setPassword] = useState("")
  const [error, setError] = useState<string | null>(null)
  const [proof, setProof] = useState<{ code: string; message: string } | null>(null)
  const creating = useFormMutation({
    mutationFn: createApiKey,
    onSuccess: (created) => {
      setName("")
      setPassword("")
      onCreated(created)
    },
    onError: (failure) => {
      const { code, message } = failure as { code?: string; message?: string }
      if ((code === "REAUTHENTICATION_REQUIRED" || code === "INVALID_CREDENTIALS") && message) return setProof({ code, message })
      setError(failureText(failure))
    }
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (creating.isRunning()) return
    if (!name.trim()) return setError("Name the key, for example after the script that uses it.")
    if (needsPassword && !password) return setError("Enter your current password to create a key.")
    setError(null)
    setProof(null)
    creating.mutate({ name: name.trim(), ...(needsPassword ? { currentPassword: password } : {}) })
  }
  return (
    <form className="grid gap-3 sm:grid-cols-[1fr_1fr_auto] sm:items-end" onSubmit={submit} noValidate>
      <TextField label="Key name" value={name} maxLength={API_KEY_NAME_MAX_LENGTH} placeholder="ci" onChange={(event) => setName(event.target.value)} />
      {needsPassword ? (
        <PasswordField label="Current password" autoComplete="current-password" value={password} onChange={(event) => setPassword(event.target.value)} />
      ) : (
        <span />
      )}
      <button type="submit" className={buttonStyles.primary} disabled={creating.isPending}>
        {creating.isPending ? "Creating..." : "Create key"}
      </button>
      {proof && (
        <div className="sm:col-span-3">
          <ProofMessage {...proof} />
        </div>
      )}
      {error && (
        <div className="sm:col-span-3">
          <Notice>{error}</Notice>
        </div>
      )}
    </form>
  )
}

export function ApiKeysCard({ hasApiAccess, needsPassword }: { hasApiAccess: boolean; needsPassword: boolean }) {
  const queryClient = useQueryClient()
  const keys = useApiKeys(hasApiAccess)
  const [created, setCreated] = useState<CreatedApiKey | null>(null)
  const refresh = () => void queryClient.invalidateQueries({ queryKey: apiKeysKeys.all })

  if (!hasApiAccess) {
    return (
      <div className="space-y-3 text-sm">
        <p>Call Image Query AI from your own scripts: questions about images, translations and your usage, with a personal API key.</p>
        <p>API keys come with the Pro and Enterprise plans.</p>
        <Link to="/pricing" className={buttonStyles.primary}>
          Upgrade
        </Link>
      </div>
    )
  }
  return (
    <div className="space-y-5 text-sm">
      <p className="text-gray-600">
        Keys call the API as you, within your plan: keep them secret. You can hold {MAX_ACTIVE_API_KEYS} at once. Each new key and each revocation is e-mailed to you.
      </p>
      {created ? (
        <NewKey created={created} onDone={() => setCreated(null)} />
      ) : (
        <CreateKeyForm
          needsPassword={needsPassword}
          onCreated={(key) => {
            setCreated(key)
            refresh()
          }}
        />
      )}
      {keys.isPending && <Spinner />}
      {keys.isError && <Notice>We could not load your keys. {failureText(keys.error)}</Notice>}
      {keys.data && (
        <RowList
          label="Your API keys"
          items={keys.data}
          empty="You have no API keys yet."
          row={(key) => ({
            key: key.id,
            name: key.name,
            detail: (
              <>
                <code className="font-mono text-xs">{key.prefix}…</code> · created {longDate(key.createdAt)} · {key.lastUsedAt ? `last used ${longDate(key.lastUsedAt)}` : "never used"}
              </>
            ),
            action: (
              <ConfirmDialog
                trigger={{ label: "Revoke", className: buttonStyles.secondary, accessibleName: `Revoke ${key.name}` }}
                title={`Revoke “${key.name}”?`}
                description="Calls made with this key are refused from now on. Scripts that use it stop working until you give them a new key."
                keepLabel="Keep the key"
                confirm={{ label: "Revoke key", busyLabel: "Revoking..." }}
                onConfirm={() => attempt(() => revokeApiKey(key.id), refresh)}
              />
            )
          })}
        />
      )}
      <ApiUsage />
    </div>
  )
}
