/**
 * Single sign-on with the organisation's identity provider (OpenID Connect): the owner enters the issuer, client ID
 * and secret the provider gave, tests them (the provider's discovery document read, nothing saved), saves them, and
 * chooses whether other ways in are refused for the organisation's verified domains; admins read the settings. The
 * secret is never shown again: a save always sends it anew.
 */
import { useState, type FormEvent } from "react"

import { longDate } from "~core/format"
import type { Organization } from "~core/organizations"
import type { SsoSettings } from "~core/organization-sso"
import { attempt, failureText } from "~site/shared/failure-text"
import { ConfirmDialog } from "~ui/ConfirmDialog"
import { Checkbox, PasswordField, TextField } from "~ui/fields"
import { Notice } from "~ui/Notice"
import { Spinner } from "~ui/Spinner"
import { buttonStyles } from "~ui/styles"
import { toast } from "~ui/toast"
import { useFormMutation } from "~site/shared/use-form-mutation"

import { removeSsoSettings, saveSsoSettings, testSsoSettings, useSsoChanged, useSsoSettings } from "./sso-requests"

/** Where the provider must send people back: the address to register with it. */
const callbackAddress = () => `${window.location.origin}/api/auth/sso/callback`

function SsoForm({ settings }: { settings: SsoSettings }) {
  const ssoChanged = useSsoChanged()
  const [issuer, setIssuer] = useState(settings.issuer ?? "")
  const [clientId, setClientId] = useState(settings.clientId ?? "")
  const [clientSecret, setClientSecret] = useState("")
  const [enforced, setEnforced] = useState(settings.enforced)
  const [missing, setMissing] = useState<string | null>(null)
  const input = () => ({ issuer: issuer.trim(), clientId: clientId.trim(), clientSecret, enforced })
  const testing = useFormMutation({ mutationFn: testSsoSettings })
  const saving = useFormMutation({
    mutationFn: saveSsoSettings,
    onSuccess: (saved) => {
      setClientSecret("")
      toast.success("Single sign-on is saved.")
      void ssoChanged(saved)
    }
  })
  const complete = () => {
    const first = !issuer.trim() ? "the issuer" : !clientId.trim() ? "the client ID" : !clientSecret ? "the client secret" : null
    setMissing(first && `Enter ${first} your provider gave you.`)
    return !first
  }
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (saving.isRunning() || !complete()) return
    testing.reset()
    saving.mutate(input())
  }

  return (
    <form className="space-y-3" onSubmit={submit} noValidate aria-label="Identity provider">
      <TextField label="Issuer" placeholder="https://login.example.com" autoComplete="off" spellCheck={false} value={issuer} onChange={(event) => setIssuer(event.target.value)} hint="The provider's address; its /.well-known/openid-configuration is read." />
      <TextField label="Client ID" autoComplete="off" spellCheck={false} value={clientId} onChange={(event) => setClientId(event.target.value)} />
      <PasswordField
        label="Client secret"
        autoComplete="new-password"
        value={clientSecret}
        onChange={(event) => setClientSecret(event.target.value)}
        hint={settings.configured ? "Stored sealed and never shown. Enter it again to save a change." : "Stored sealed and never shown again."}
      />
      <Checkbox
        label="Require single sign-on: refuse passwords, Google and passkeys for addresses on your verified domains (you, the owner, keep every way in)"
        checked={enforced}
        onChange={setEnforced}
      />
      {missing && <Notice>{missing}</Notice>}
      {testing.isSuccess && (
        <Notice tone="success">
          The provider answered as {testing.data.issuer}
          {testing.data.authorizationEndpoint ? `; people sign in at ${testing.data.authorizationEndpoint}` : ""}.
        </Notice>
      )}
      {testing.isError && <Notice>{failureText(testing.error)}</Notice>}
      {saving.isError && <Notice>{failureText(saving.error)}</Notice>}
      <div className="flex flex-wrap gap-2">
        <button type="submit" className={buttonStyles.primary} disabled={saving.isPending}>
          {saving.isPending ? "Checking and saving..." : "Save"}
        </button>
        <button
          type="button"
          className={buttonStyles.secondary}
          disabled={testing.isPending}
          onClick={() => {
            if (testing.isRunning() || !complete()) return
            testing.mutate(input())
          }}
        >
          {testing.isPending ? "Testing..." : "Test"}
        </button>
      </div>
    </form>
  )
}

function TurnOff() {
  const ssoChanged = useSsoChanged()
  const removing = useFormMutation({ mutationFn: removeSsoSettings })
  return (
    <ConfirmDialog
      trigger={{ label: "Turn off single sign-on", className: buttonStyles.secondary }}
      title="Turn off single sign-on?"
      description="Your people can no longer sign in through your identity provider. Those without a password or Google sign-in will need to set one up with Forgot password."
      confirm={{ label: "Turn it off", busyLabel: "Turning off...", className: buttonStyles.danger }}
      onConfirm={(close) =>
        attempt(async () => {
          const removed = await removing.mutateAsync()
          close()
          toast.success("Single sign-on is off.")
          await ssoChanged(removed)
        })
      }
    />
  )
}

export function SsoCard({ organization }: { organization: Organization }) {
  const owner = organization.role === "owner"
  const settings = useSsoSettings()
  if (settings.isPending) return <Spinner label="Loading single sign-on" />
  if (settings.isError) return <Notice>{failureText(settings.error)}</Notice>
  const { data } = settings
  return (
    <div className="space-y-4 text-sm">
      <p className="text-gray-700">
        {data.configured
          ? `People with an address on your verified domains sign in through ${data.issuer}${data.enforced ? ", and only that way" : ""}. Saved on ${longDate(data.updatedAt!)}.`
          : "Let your people sign in with your company's identity provider (Okta, Microsoft Entra ID, Google Workspace or any OpenID Connect provider). Verify your e-mail domain first."}
      </p>
      <div className="rounded-xl bg-gray-50 p-3">
        <p className="font-medium text-gray-700">Redirect address to register with your provider</p>
        <code className="mt-1 block select-all break-all font-mono text-xs text-gray-900">{callbackAddress()}</code>
      </div>
      {owner ? <SsoForm key={data.updatedAt ?? "new"} settings={data} /> : <p className="text-gray-600">The owner sets up single sign-on.</p>}
      {owner && data.configured && <TurnOff />}
    </div>
  )
}
