/**
 * The dashboard's *Two-step sign-in*: set up an authenticator app (the QR code our server drew, the key to type by
 * hand, the first code to confirm), the recovery codes shown once (copy, or download as a text file), and, once on,
 * new recovery codes or turning it off. Every change needs what the server asks: the password (or a recent sign-in
 * for an account without one) and a current code.
 */
import { useQueryClient } from "@tanstack/react-query"
import { useState, type FormEvent } from "react"

import { PRODUCT_NAME } from "~core/company"
import { TOTP_CODE_MESSAGE, typedTotpCode } from "~core/two-step"
import { copyText } from "~ui/clipboard"
import { PasswordField, TextField } from "~ui/fields"
import { Notice } from "~ui/Notice"
import { Spinner } from "~ui/Spinner"
import { buttonStyles } from "~ui/styles"
import { failureText } from "~site/shared/failure-text"
import { useFormMutation } from "~site/shared/use-form-mutation"

import { disableAuthenticator, enableAuthenticator, replaceRecoveryCodes, twoStepKeys, startAuthenticatorSetup, useMfaStatus } from "./two-step-requests"

/** The typed code as sent; the forms check it with typedTotpCode first. */
const codeOf = (value: string) => typedTotpCode(value) ?? value

/** The recovery codes, shown once: copy them, or download them as a text file. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const [copied, setCopied] = useState<boolean | null>(null)
  const file = `${PRODUCT_NAME} recovery codes\n\nEach code signs in once, in place of a code from your authenticator app.\n\n${codes.join("\n")}\n`
  return (
    <div className="space-y-3" data-testid="recovery-codes">
      <Notice tone="success">Save these recovery codes somewhere safe. Each signs in once if you lose your authenticator app, and they are not shown again.</Notice>
      <ol className="grid grid-cols-2 gap-x-6 gap-y-1 font-mono text-sm">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ol>
      <div className="flex flex-wrap gap-2">
        <button type="button" className={buttonStyles.secondary} onClick={() => void copyText(codes.join("\n")).then(setCopied)}>
          {copied === true ? "Copied" : copied === false ? "Copy failed" : "Copy codes"}
        </button>
        <a className={buttonStyles.secondary} href={`data:text/plain;charset=utf-8,${encodeURIComponent(file)}`} download="image-query-ai-recovery-codes.txt">
          Download as a text file
        </a>
        <button type="button" className={buttonStyles.primary} onClick={onDone}>
          I have saved them
        </button>
      </div>
    </div>
  )
}

/** Off: the password first, then the QR code and the key, then the first code. */
function SetUp({ needsPassword, onEnabled }: { needsPassword: boolean; onEnabled: (codes: string[]) => void }) {
  const [password, setPassword] = useState("")
  const [code, setCode] = useState("")
  const [error, setError] = useState<string | null>(null)
  const setup = useFormMutation({ mutationFn: () => startAuthenticatorSetup(needsPassword ? password : undefined), onError: (failure) => setError(failureText(failure)) })
  const enable = useFormMutation({ mutationFn: () => enableAuthenticator(codeOf(code)), onSuccess: ({ recoveryCodes }) => onEnabled(recoveryCodes), onError: (failure) => setError(failureText(failure)) })

  const submit = (event: FormEvent) => {
    event.preventDefault()
    setError(null)
    if (!setup.data) {
      if (needsPassword && !password) return setError("Enter your current password first")
      return setup.mutate()
    }
    if (!typedTotpCode(code)) return setError(TOTP_CODE_MESSAGE)
    enable.mutate()
  }

  return (
    <form className="space-y-3" onSubmit={submit} noValidate>
      {!setup.data ? (
        <>
          <p>Two-step sign-in is off. Turn it on to be asked for a code from an authenticator app after your password.</p>
          {needsPassword && <PasswordField label="Current password" toggleKey="m" autoComplete="current-password" value={password} onChange={(event) => setPassword(event.target.value)} />}
          {error && <Notice>{error}</Notice>}
          <button type="submit" className={buttonStyles.primary} disabled={setup.isPending}>
            {setup.isPending ? "Setting up..." : "Set up two-step sign-in"}
          </button>
        </>
      ) : (
        <>
          <p>Scan this QR code with your authenticator app, then enter the 6-digit code it shows.</p>
          <img src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(setup.data.qrSvg)}`} alt="QR code for your authenticator app" className="h-44 w-44 rounded border border-gray-200" />
          <p>
            Or type this key: <code data-testid="totp-secret" className="break-all rounded bg-gray-100 px-1 font-mono">{setup.data.secret}</code>
          </p>
          <TextField label="6-digit code from the app" inputMode="numeric" autoComplete="one-time-code" maxLength={7} value={code} onChange={(event) => setCode(event.target.value)} />
          {error && <Notice>{error}</Notice>}
          <button type="submit" className={buttonStyles.primary} disabled={enable.isPending}>
            {enable.isPending ? "Turning on..." : "Turn on"}
          </button>
        </>
      )}
    </form>
  )
}

/** On: new recovery codes, or off; both with a current code (and the password to turn it off). */
function Manage({ needsPassword, codesLeft, onCodes, onOff }: { needsPassword: boolean; codesLeft: number; onCodes: (codes: string[]) => void; onOff: () => void }) {
  const [action, setAction] = useState<"codes" | "off" | null>(null)
  const [password, setPassword] = useState("")
  const [code, setCode] = useState("")
  const [error, setError] = useState<string | null>(null)
  const change = useFormMutation({
    /** The new recovery codes, or null once turned off. */
    mutationFn: async (): Promise<string[] | null> => {
      if (action === "codes") return (await replaceRecoveryCodes(codeOf(code))).recoveryCodes
      await disableAuthenticator({ currentPassword: needsPassword ? password : undefined, code: codeOf(code) })
      return null
    },
    onSuccess: (codes) => (codes ? onCodes(codes) : onOff()),
    onError: (failure) => setError(failureText(failure))
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    setError(null)
    if (!typedTotpCode(code)) return setError(TOTP_CODE_MESSAGE)
    if (action === "off" && needsPassword && !password) return setError("Enter your current password")
    change.mutate()
  }
  return (
    <div className="space-y-3">
      <p>
        Two-step sign-in is on: after your password, you enter a code from your authenticator app. {codesLeft} of 10 recovery codes left.
      </p>
      {action === null ? (
        <div className="flex flex-wrap gap-2">
          <button type="button" className={buttonStyles.secondary} onClick={() => setAction("codes")}>
            Replace recovery codes
          </button>
          <button type="button" className={buttonStyles.secondary} onClick={() => setAction("off")}>
            Turn off
          </button>
        </div>
      ) : (
        <form className="space-y-3" onSubmit={submit} noValidate aria-label={action === "codes" ? "Replace recovery codes" : "Turn off two-step sign-in"}>
          {action === "off" && needsPassword && <PasswordField label="Current password" toggleKey="m" autoComplete="current-password" value={password} onChange={(event) => setPassword(event.target.value)} />}
          <TextField label="6-digit code from the app" inputMode="numeric" autoComplete="one-time-code" maxLength={7} value={code} onChange={(event) => setCode(event.target.value)} />
          {error && <Notice>{error}</Notice>}
          <div className="flex flex-wrap gap-2">
            <button type="submit" className={buttonStyles.primary} disabled={change.isPending}>
              {action === "codes" ? "Replace codes" : "Turn off two-step sign-in"}
            </button>
            <button type="button" className={buttonStyles.secondary} onClick={() => setAction(null)}>
              Cancel
            </button>
          </div>
        </form>
      )}
    </div>
  )
}

export function TwoStepCard({ needsPassword }: { needsPassword: boolean }) {
  const queryClient = useQueryClient()
  const status = useMfaStatus()
  const [shownCodes, setShownCodes] = useState<string[] | null>(null)
  const refresh = () => void queryClient.invalidateQueries({ queryKey: twoStepKeys.status })
  if (shownCodes) {
    return (
      <RecoveryCodes
        codes={shownCodes}
        onDone={() => {
          setShownCodes(null)
          refresh()
        }}
      />
    )
  }
  if (status.isPending) return <Spinner />
  if (status.isError) return <Notice>{failureText(status.error)}</Notice>
  return (
    <div className="text-sm">
      {status.data.totp ? (
        <Manage needsPassword={needsPassword} codesLeft={status.data.recoveryCodesLeft} onCodes={setShownCodes} onOff={refresh} />
      ) : (
        <SetUp needsPassword={needsPassword} onEnabled={setShownCodes} />
      )}
    </div>
  )
}
