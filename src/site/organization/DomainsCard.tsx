/**
 * The organisation's e-mail domains (owner and admins): each with its state in words and, until it is verified, the
 * TXT record to add at its DNS provider, copyable part by part. The owner adds a domain (checked here first with
 * normalDomain, then by the server), verifies it once the record is in place (the server's words when it is not yet)
 * and removes it after a confirmation; an admin reads. Domain names and records are rendered as text.
 */
import { useRef, useState, type FormEvent } from "react"

import { longDate } from "~core/format"
import { MAX_ORGANIZATION_DOMAINS, normalDomain, type OrganizationDomain } from "~core/organization-domains"
import type { Organization } from "~core/organizations"
import { attempt, failureText } from "~site/shared/failure-text"
import { LoadFailure } from "~site/shared/LoadFailure"
import { copyText } from "~ui/clipboard"
import { ConfirmDialog } from "~ui/ConfirmDialog"
import { TextField } from "~ui/fields"
import { Notice } from "~ui/Notice"
import { Spinner } from "~ui/Spinner"
import { buttonStyles } from "~ui/styles"
import { toast } from "~ui/toast"
import { useFormMutation } from "~site/shared/use-form-mutation"

import { addDomain, removeDomain, useDomains, useDomainsChanged, verifyDomain } from "./domains-requests"

export const DOMAIN_FORMAT_MESSAGE = "Enter a domain name such as example.com"

const smallButton = `${buttonStyles.secondary} !px-3 !py-1.5 whitespace-nowrap text-xs`

function AddDomainForm() {
  const domainsChanged = useDomainsChanged()
  const [typed, setTyped] = useState("")
  const [fieldError, setFieldError] = useState<string | undefined>()
  const [added, setAdded] = useState<string | null>(null)
  const adding = useFormMutation({
    mutationFn: addDomain,
    onSuccess: (domain) => {
      setTyped("")
      setAdded(domain.domain)
      void domainsChanged(domain)
    }
  })

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (adding.isRunning()) return
    setAdded(null)
    adding.reset()
    const domain = normalDomain(typed)
    if (!domain) {
      setFieldError(DOMAIN_FORMAT_MESSAGE)
      // Where the error is read out, also after a click on the button.
      event.currentTarget.querySelector("input")?.focus()
      return
    }
    setFieldError(undefined)
    adding.mutate(domain)
  }

  return (
    <form className="grid gap-3 sm:grid-cols-[1fr_auto] sm:items-start" onSubmit={submit} noValidate aria-label="Add a domain">
      <TextField
        label="Domain"
        placeholder="example.com"
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        value={typed}
        error={fieldError}
        hint={`The part of your addresses after the @. Up to ${MAX_ORGANIZATION_DOMAINS} domains.`}
        onChange={(event) => {
          setTyped(event.target.value)
          setFieldError(undefined)
        }}
      />
      <button type="submit" className={`${buttonStyles.primary} sm:mt-6`} disabled={adding.isPending}>
        {adding.isPending ? "Adding..." : "Add domain"}
      </button>
      {adding.isError && (
        <div className="sm:col-span-2">
          <Notice>{failureText(adding.error)}</Notice>
        </div>
      )}
      {added && (
        <div className="sm:col-span-2">
          <Notice tone="success">Added {added}. Add its TXT record at your DNS provider, then verify it.</Notice>
        </div>
      )}
    </form>
  )
}

/** One part of the record, with a button that copies it (named for the part and the domain, its state in its words). */
function RecordPart({ label, value, domain }: { label: string; value: string; domain: string }) {
  const [copied, setCopied] = useState<boolean | null>(null)
  const state = copied === true ? "Copied" : copied === false ? "Copy failed" : "Copy"
  return (
    <div className="grid gap-1 sm:grid-cols-[4rem_1fr] sm:items-center sm:gap-3">
      <dt className="font-medium text-gray-700">{label}</dt>
      <dd className="flex min-w-0 items-center gap-2">
        <code className="min-w-0 flex-1 select-all break-all rounded bg-white px-2 py-1 font-mono text-xs text-gray-900 ring-1 ring-gray-200">{value}</code>
        <button
          type="button"
          className={smallButton}
          aria-label={`${state}: ${label.toLowerCase()} of the record for ${domain}`}
          onClick={() => void copyText(value).then(setCopied)}
        >
          {state}
        </button>
      </dd>
    </div>
  )
}

function VerifyButton({ domain, onVerified }: { domain: string; onVerified: () => void }) {
  const domainsChanged = useDomainsChanged()
  const verifying = useFormMutation({
    mutationFn: () => verifyDomain(domain),
    onSuccess: (verified) => {
      toast.success(`${verified.domain} is verified.`)
      onVerified()
      void domainsChanged(verified)
    }
  })
  return (
    <div className="space-y-2">
      <button
        type="button"
        className={buttonStyles.primary}
        disabled={verifying.isPending}
        aria-label={verifying.isPending ? undefined : `Verify ${domain}`}
        onClick={() => !verifying.isRunning() && verifying.mutate()}
      >
        {verifying.isPending ? "Checking DNS..." : "Verify"}
      </button>
      {verifying.isError && <Notice>{failureText(verifying.error)}</Notice>}
    </div>
  )
}

function RemoveDomain({ domain, onRemoved }: { domain: OrganizationDomain; onRemoved: () => void }) {
  const domainsChanged = useDomainsChanged()
  const removing = useFormMutation({ mutationFn: () => removeDomain(domain.domain) })
  return (
    <ConfirmDialog
      trigger={{ label: "Remove", className: smallButton, accessibleName: `Remove ${domain.domain}` }}
      title={`Remove ${domain.domain}?`}
      description={`${domain.verified ? `${domain.domain} stops being verified for your organisation. ` : ""}Adding it again later gives it a new TXT record to verify, so you may delete the present one at your DNS provider.`}
      confirm={{ label: "Remove domain", busyLabel: "Removing...", className: buttonStyles.danger }}
      onConfirm={(close) =>
        attempt(removing.mutateAsync, async () => {
          close()
          toast.success(`${domain.domain} is removed.`)
          await domainsChanged()
          onRemoved()
        })
      }
    />
  )
}

function DomainItem({ domain, owner, onRemoved }: { domain: OrganizationDomain; owner: boolean; onRemoved: () => void }) {
  const stateRef = useRef<HTMLParagraphElement>(null)
  const { record } = domain
  return (
    <li className="space-y-3 px-4 py-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="break-all font-medium">{domain.domain}</p>
          <p ref={stateRef} tabIndex={-1} className={`focus:outline-none ${domain.verified ? "text-emerald-800" : "text-gray-600"}`}>
            {domain.verified && domain.verifiedAt ? `Verified on ${longDate(domain.verifiedAt)}` : domain.verified ? "Verified" : "Not verified yet"}
          </p>
        </div>
        {owner && <RemoveDomain domain={domain} onRemoved={onRemoved} />}
      </div>
      {!domain.verified && (
        <div className="space-y-3 rounded-xl bg-gray-50 p-3">
          <p className="text-gray-700">Add this record at the DNS provider of {domain.domain}:</p>
          <dl className="space-y-2">
            <RecordPart label="Type" value={record.type} domain={domain.domain} />
            <RecordPart label="Name" value={record.name} domain={domain.domain} />
            <RecordPart label="Value" value={record.value} domain={domain.domain} />
          </dl>
          {owner ? (
            <VerifyButton domain={domain.domain} onVerified={() => stateRef.current?.focus()} />
          ) : (
            <p className="text-gray-600">Once the record is in place, the owner verifies the domain.</p>
          )}
        </div>
      )}
    </li>
  )
}

export function DomainsCard({ organization }: { organization: Organization }) {
  const owner = organization.role === "owner"
  const domains = useDomains(true)
  const listHeading = useRef<HTMLHeadingElement>(null)
  return (
    <div className="space-y-5 text-sm">
      <p className="text-gray-600">
        Verify the domains of your company&apos;s e-mail addresses to set up single sign-on for them.
        {owner ? " DNS changes can take a few minutes to appear." : " The owner adds and verifies them."}
      </p>
      {owner && <AddDomainForm />}
      <h3 ref={listHeading} tabIndex={-1} className="font-semibold focus:outline-none">
        Your domains
      </h3>
      {domains.isPending && <Spinner label="Loading the domains" />}
      {domains.isError && <LoadFailure subject="the domains" query={domains} className="space-y-2" />}
      {domains.data?.length === 0 && <p className="text-gray-600">No domain is added yet.</p>}
      {domains.data && domains.data.length > 0 && (
        <ul aria-label="Your domains" className="divide-y divide-gray-100 rounded-xl border border-gray-200">
          {domains.data.map((domain) => (
            <DomainItem key={domain.domain} domain={domain} owner={owner} onRemoved={() => listHeading.current?.focus()} />
          ))}
        </ul>
      )}
    </div>
  )
}
