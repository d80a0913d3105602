/**
 * /admin/password-policy: the rules every new password must meet. The page loads the policy; the editor lays out
 * its sections over the form state of use-policy-editor.ts.
 */
import { useQuery } from "@tanstack/react-query"
import type { ReactNode } from "react"

import { BUILT_IN_RULE_NAMES } from "~core/password-policy"
import { Notice } from "~ui/Notice"
import { Spinner } from "~ui/Spinner"
import { PageTitle } from "~site/shared/PageTitle"

import { adminKeys, fetchAdminPolicy, type AdminPolicyView } from "../admin-requests"
import { CustomRules } from "./CustomRules"
import { MessagesEditor } from "./MessagesEditor"
import { PolicyOptions } from "./PolicyOptions"
import { PolicyToolbar } from "./PolicyToolbar"
import { RuleEditor } from "./RuleEditor"
import { problemsOf, usePolicyEditor } from "./use-policy-editor"

function Section({ title, description, children }: { title: string; description?: string; children: ReactNode }) {
  return (
    <section aria-label={title} className="rounded-2xl border border-gray-200 bg-white p-6 shadow-sm">
      <h2 className="text-lg font-semibold">{title}</h2>
      {description && <p className="mt-1 text-sm text-gray-600">{description}</p>}
      <div className="mt-4">{children}</div>
    </section>
  )
}

function LoadFailure({ error }: { error: unknown }) {
  const failure = problemsOf(error)
  return (
    <Notice details={failure.details} data-testid="policy-notice" spacing="roomy">
      <p>{failure.text}</p>
    </Notice>
  )
}

function PolicyEditor({ initial }: { initial: AdminPolicyView }) {
  const editor = usePolicyEditor(initial)
  const { saved, draft, busy } = editor
  return (
    <div className="space-y-6">
      <PolicyToolbar editor={editor} />

      <Section title="Rules" description="Each rule is checked on the next registration or password change once it is saved.">
        <ul className="space-y-3">
          {BUILT_IN_RULE_NAMES.map((name) => (
            <RuleEditor key={name} saved={saved.rules[name]} draft={draft.rules[name]} onChange={editor.setRule} onSave={() => editor.saveRule(name)} busy={busy} />
          ))}
        </ul>
      </Section>

      <Section title="Options">
        <PolicyOptions options={draft} onChange={editor.setOption} />
      </Section>

      <Section title="Messages" description="Overrides of failure messages by error code; they replace the rule's own message.">
        <MessagesEditor messages={draft.messages} onChange={(messages) => editor.setOption("messages", messages)} />
      </Section>

      <Section title="Custom rules" description="Regular expressions a password must match or must not match. Adding or removing a rule saves it at once.">
        <CustomRules rules={saved.customRules} onAdd={editor.addCustomRule} onRemove={editor.removeCustomRule} busy={busy} />
      </Section>
    </div>
  )
}

export default function PasswordPolicyPage() {
  const policy = useQuery({ queryKey: adminKeys.passwordPolicy, queryFn: fetchAdminPolicy, staleTime: 0, gcTime: 0 })
  return (
    <div className="mx-auto max-w-5xl space-y-6 px-4 py-10 sm:px-6 lg:px-8">
      <PageTitle title="Password Policy" />
      <header>
        <h1 className="text-3xl font-bold tracking-tight">Password Policy</h1>
        <p className="mt-1 text-gray-600">The rules every new password must meet. A change applies to the next registration or password change.</p>
      </header>
      {policy.isPending ? (
        <Spinner label="Loading the policy" />
      ) : policy.isError ? (
        <LoadFailure error={policy.error} />
      ) : (
        <PolicyEditor initial={policy.data} />
      )}
    </div>
  )
}
