import { useQuery } from "@tanstack/react-query"
import { useEffect, useId, useRef, useState, type ReactNode } from "react"

import { ApiRequestError } from "~api/http-client"
import { ADMIN_NOTICE_FADE_MS } from "~core/limits"
import {
  BUILT_IN_RULE_NAMES,
  createDefaultPasswordPolicy,
  CUSTOM_ERROR_CODE_PATTERN,
  customRuleSchema,
  isCharacterRule,
  PASSWORD_POLICY_BOUNDS as BOUNDS,
  type BuiltInRuleName,
  type CustomRule,
  type PasswordPolicyConfig,
  type PolicyRule
} from "~core/password-policy"
import { TextField } from "~ui/fields"
import { Download, Plus, RotateCcw, Trash2, Upload } from "~ui/icons"
import { Spinner } from "~ui/Spinner"
import { buttonStyles } from "~ui/styles"

import { PageTitle } from "../PageTitle"
import { fetchAdminPolicy, savePolicy, saveRule, toPolicyConfig, type AdminPolicyView } from "./admin-api"
import { POLICY_FILE_NAME, policyFileContent, readPolicyFile } from "./policy-file"

export const CUSTOM_RULE_REQUIRED_MESSAGE = "Name, message, and error code are required"

const RULE_LABELS: Record<BuiltInRuleName, string> = {
  minLength: "Minimum length",
  maxLength: "Maximum length",
  requireUppercase: "Require an uppercase letter",
  requireLowercase: "Require a lowercase letter",
  requireNumbers: "Require a number",
  requireSpecialChars: "Require a special character",
  preventCommonPasswords: "Refuse common passwords",
  preventSequentialChars: "Limit sequential characters",
  preventRepeatedChars: "Limit repeated characters",
  preventUserInfo: "Refuse personal information",
  preventRecentPasswords: "Refuse recent passwords"
}

const VALUE_LABELS: Partial<Record<BuiltInRuleName, string>> = {
  minLength: "Characters",
  maxLength: "Characters",
  requireSpecialChars: "Special characters",
  preventSequentialChars: "Longest run allowed",
  preventRepeatedChars: "Longest run allowed",
  preventRecentPasswords: "Passwords remembered"
}

type Notice = { tone: "success" | "error"; text: string; details?: string[] }

const inputStyles =
  "block w-full rounded-lg border border-gray-300 bg-white px-2 py-1.5 text-sm shadow-sm focus:border-brand-primary focus:outline-none focus:ring-2 focus:ring-brand-primary/30"

function problemsOf(error: unknown): Notice {
  if (error instanceof ApiRequestError) return { tone: "error", text: error.message, details: error.details }
  return { tone: "error", text: error instanceof Error ? error.message : String(error) }
}

/** Success notices fade after ADMIN_NOTICE_FADE_MS (3 s); errors stay until the next action. */
function useNotice() {
  const [notice, setNotice] = useState<Notice | null>(null)
  useEffect(() => {
    if (notice?.tone !== "success") return
    const timer = setTimeout(() => setNotice(null), ADMIN_NOTICE_FADE_MS)
    return () => clearTimeout(timer)
  }, [notice])
  return [notice, setNotice] as const
}

function NoticeBox({ notice }: { notice: Notice | null }) {
  if (!notice) return null
  const styles = notice.tone === "success" ? "border-emerald-200 bg-emerald-50 text-emerald-800" : "border-red-200 bg-red-50 text-red-800"
  return (
    <div role={notice.tone === "error" ? "alert" : "status"} data-testid="policy-notice" className={`rounded-lg border px-4 py-3 text-sm ${styles}`}>
      <p>{notice.text}</p>
      {notice.details && notice.details.length > 0 && (
        <ul className="mt-1 list-disc pl-5">
          {notice.details.map((detail) => (
            <li key={detail}>{detail}</li>
          ))}
        </ul>
      )}
    </div>
  )
}

function Checkbox({ label, checked, onChange }: { label: string; checked: boolean; onChange: (checked: boolean) => void }) {
  const id = useId()
  return (
    <span className="inline-flex items-center gap-2 text-sm">
      <input id={id} type="checkbox" checked={checked} onChange={(event) => onChange(event.target.checked)} className="h-4 w-4 rounded border-gray-300 text-brand-primary focus-ring" />
      <label htmlFor={id}>{label}</label>
    </span>
  )
}

/** `context` (the rule's name) completes the label for screen readers; sighted users see it in the card's heading. */
function LabelledInput({ label, context, children }: { label: string; context?: string; children: (id: string) => ReactNode }) {
  const id = useId()
  return (
    <div>
      <label htmlFor={id} className="block text-xs font-medium text-gray-600">
        {label}
        {context && <span className="sr-only"> ({context})</span>}
      </label>
      <div className="mt-1">{children(id)}</div>
    </div>
  )
}

/** The fields of one rule that differ from the saved rule, as PUT /api/password-policy/rules takes them. */
function ruleChanges(saved: PolicyRule, draft: PolicyRule): Record<string, unknown> {
  const changes: Record<string, unknown> = {}
  if (saved.enabled !== draft.enabled) changes.enabled = draft.enabled
  if (saved.required !== draft.required) changes.required = draft.required
  if (saved.value !== draft.value) changes.value = draft.value
  if (saved.message !== draft.message) changes.message = draft.message
  if ((saved.regex ?? "") !== (draft.regex ?? "")) changes.regex = draft.regex ? draft.regex : null
  return changes
}

function RuleEditor({ saved, draft, onChange, onSave, busy }: { saved: PolicyRule; draft: PolicyRule; onChange: (rule: PolicyRule) => void; onSave: () => void; busy: boolean }) {
  const name = draft.name
  const valueLabel = VALUE_LABELS[name]
  const changed = Object.keys(ruleChanges(saved, draft)).length > 0
  return (
    <li className="rounded-xl border border-gray-200 p-4" data-rule={name}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h3 className="font-semibold">{RULE_LABELS[name]}</h3>
          <p className="font-mono text-xs text-gray-500">
            {name} · {draft.errorCode}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-4">
          <Checkbox label="Enabled" checked={draft.enabled} onChange={(enabled) => onChange({ ...draft, enabled })} />
          <Checkbox label="Required" checked={draft.required} onChange={(required) => onChange({ ...draft, required })} />
          <button type="button" className={buttonStyles.secondary} disabled={!changed || busy} onClick={onSave} aria-label={`Save ${RULE_LABELS[name]}`}>
            Save rule
          </button>
        </div>
      </div>
      <div className="mt-3 grid gap-3 sm:grid-cols-[10rem_minmax(0,1fr)]">
        {valueLabel && (
          <LabelledInput label={valueLabel} context={RULE_LABELS[name]}>
            {(id) =>
              typeof draft.value === "string" ? (
                <input id={id} className={inputStyles} value={draft.value} onChange={(event) => onChange({ ...draft, value: event.target.value })} />
              ) : (
                <input id={id} type="number" className={inputStyles} value={draft.value ?? ""} onChange={(event) => onChange({ ...draft, value: event.target.value === "" ? undefined : Number(event.target.value) })} />
              )
            }
          </LabelledInput>
        )}
        <div className={valueLabel ? "" : "sm:col-span-2"}>
          <LabelledInput label="Message" context={RULE_LABELS[name]}>
            {(id) => <input id={id} className={inputStyles} maxLength={BOUNDS.messageLength.max} value={draft.message} onChange={(event) => onChange({ ...draft, message: event.target.value })} />}
          </LabelledInput>
        </div>
        {isCharacterRule(name) && (
          <div className="sm:col-span-2">
            <LabelledInput label="Regular expression, replaces the built-in test (optional)" context={RULE_LABELS[name]}>
              {(id) => <input id={id} className={`${inputStyles} font-mono`} value={draft.regex ?? ""} onChange={(event) => onChange({ ...draft, regex: event.target.value || undefined })} />}
            </LabelledInput>
          </div>
        )}
      </div>
    </li>
  )
}

const emptyCustomRule = { name: "", errorCode: "", message: "", regex: "", mode: "mustMatch" as CustomRule["mode"], enabled: true, required: true }

function newRuleId(name: string, taken: Set<string>): string {
  const base = name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 40) || "rule"
  let id = `custom-${base}`
  for (let suffix = 2; taken.has(id); suffix++) id = `custom-${base}-${suffix}`
  return id
}

function CustomRuleForm({ existing, onAdd, busy }: { existing: CustomRule[]; onAdd: (rule: CustomRule) => Promise<boolean>; busy: boolean }) {
  const [form, setForm] = useState(emptyCustomRule)
  const [problems, setProblems] = useState<string[]>([])
  const modeId = useId()

  const submit = async () => {
    if (!form.name.trim() || !form.message.trim() || !form.errorCode.trim()) {
      setProblems([CUSTOM_RULE_REQUIRED_MESSAGE])
      return
    }
    const candidate = {
      id: newRuleId(form.name, new Set(existing.map((rule) => rule.id))),
      name: form.name.trim(),
      errorCode: form.errorCode.trim(),
      message: form.message.trim(),
      regex: form.regex,
      mode: form.mode,
      enabled: form.enabled,
      required: form.required
    }
    const parsed = customRuleSchema.safeParse(candidate)
    if (!parsed.success) {
      setProblems(parsed.error.issues.map((issue) => (issue.path[0] === "regex" && !form.regex ? "A custom rule needs a regular expression to check." : issue.message)))
      return
    }
    setProblems([])
    if (await onAdd(parsed.data)) setForm(emptyCustomRule)
  }

  return (
    <form
      aria-label="Add a custom rule"
      className="space-y-3 rounded-xl border border-dashed border-gray-300 p-4"
      noValidate
      onSubmit={(event) => {
        event.preventDefault()
        void submit()
      }}
    >
      <h3 className="font-semibold">Add a custom rule</h3>
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField label="Name" value={form.name} maxLength={BOUNDS.nameLength.max} onChange={(event) => setForm({ ...form, name: event.target.value })} />
        <TextField
          label="Error code"
          value={form.errorCode}
          placeholder="PASSWORD_NO_COMPANY_NAME"
          hint={`Upper-case letters, digits and underscores (${CUSTOM_ERROR_CODE_PATTERN.source}).`}
          onChange={(event) => setForm({ ...form, errorCode: event.target.value.toUpperCase() })}
        />
        <TextField label="Message" value={form.message} maxLength={BOUNDS.messageLength.max} onChange={(event) => setForm({ ...form, message: event.target.value })} />
        <TextField label="Regular expression" value={form.regex} spellCheck={false} onChange={(event) => setForm({ ...form, regex: event.target.value })} />
        <div>
          <label htmlFor={modeId} className="block text-sm font-medium text-gray-700">
            The password
          </label>
          <select id={modeId} value={form.mode} onChange={(event) => setForm({ ...form, mode: event.target.value as CustomRule["mode"] })} className={`mt-1 ${inputStyles}`}>
            <option value="mustMatch">must match the expression</option>
            <option value="mustNotMatch">must not match the expression</option>
          </select>
        </div>
        <div className="flex items-end gap-4 pb-2">
          <Checkbox label="Enabled" checked={form.enabled} onChange={(enabled) => setForm({ ...form, enabled })} />
          <Checkbox label="Required" checked={form.required} onChange={(required) => setForm({ ...form, required })} />
        </div>
      </div>
      {problems.length > 0 && (
        <ul role="alert" className="list-disc pl-5 text-sm text-red-600">
          {problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      )}
      <button type="submit" className={buttonStyles.primary} disabled={busy}>
        <Plus aria-hidden="true" className="h-4 w-4" /> Add rule
      </button>
    </form>
  )
}

function MessagesEditor({ messages, onChange }: { messages: PasswordPolicyConfig["messages"]; onChange: (messages: PasswordPolicyConfig["messages"]) => void }) {
  const [code, setCode] = useState("")
  const entries = Object.entries(messages).filter((entry): entry is [string, string] => typeof entry[1] === "string")
  return (
    <div className="space-y-3">
      {entries.length === 0 && <p className="text-sm text-gray-500">No overrides: every rule uses its own message.</p>}
      <ul className="space-y-2">
        {entries.map(([key, text]) => (
          <li key={key} className="flex items-end gap-2">
            <div className="flex-1">
              <LabelledInput label={`Message for ${key}`}>
                {(id) => <input id={id} className={inputStyles} value={text} maxLength={BOUNDS.messageLength.max} onChange={(event) => onChange({ ...messages, [key]: event.target.value })} />}
              </LabelledInput>
            </div>
            <button
              type="button"
              aria-label={`Remove the message for ${key}`}
              className="rounded-md p-2 text-gray-400 hover:bg-red-50 hover:text-red-600 focus-visible:outline focus-visible:outline-2 focus-visible:outline-red-600"
              onClick={() => onChange(Object.fromEntries(entries.filter(([other]) => other !== key)))}
            >
              <Trash2 aria-hidden="true" className="h-4 w-4" />
            </button>
          </li>
        ))}
      </ul>
      <div className="flex items-end gap-2">
        <div className="flex-1">
          <TextField label="Error code to override" value={code} placeholder="PASSWORD_TOO_SHORT" onChange={(event) => setCode(event.target.value.toUpperCase())} />
        </div>
        <button
          type="button"
          className={buttonStyles.secondary}
          disabled={!CUSTOM_ERROR_CODE_PATTERN.test(code) || code in messages}
          onClick={() => {
            onChange({ ...messages, [code]: "" })
            setCode("")
          }}
        >
          Add message
        </button>
      </div>
    </div>
  )
}

function Section({ title, description, children }: { title: string; description?: string; children: ReactNode }) {
  return (
    <section aria-label={title} className="rounded-2xl border border-gray-200 bg-white p-6 shadow-sm">
      <h2 className="text-lg font-semibold">{title}</h2>
      {description && <p className="mt-1 text-sm text-gray-600">{description}</p>}
      <div className="mt-4">{children}</div>
    </section>
  )
}

function PolicyEditor({ initial }: { initial: AdminPolicyView }) {
  const [saved, setSaved] = useState(() => toPolicyConfig(initial))
  const [draft, setDraft] = useState(saved)
  const [busy, setBusy] = useState(false)
  const [notice, setNotice] = useNotice()
  const importInput = useRef<HTMLInputElement>(null)

  const apply = (view: AdminPolicyView, text: string) => {
    const policy = toPolicyConfig(view)
    setSaved(policy)
    setDraft(policy)
    setNotice({ tone: "success", text })
  }

  const run = async (task: () => Promise<void>) => {
    setBusy(true)
    try {
      await task()
    } catch (error) {
      setNotice(problemsOf(error))
    } finally {
      setBusy(false)
    }
  }

  const saveOneRule = (name: BuiltInRuleName) =>
    run(async () => {
      const view = await saveRule({ ruleName: name, ...ruleChanges(saved.rules[name], draft.rules[name]) })
      // Only this rule was saved: other edits in progress stay as they are.
      const policy = toPolicyConfig(view)
      setSaved(policy)
      setDraft((current) => ({ ...current, rules: { ...current.rules, [name]: policy.rules[name] } }))
      setNotice({ tone: "success", text: `${RULE_LABELS[name]} saved.` })
    })

  const saveAll = () => run(async () => apply(await savePolicy(draft), "Password policy saved."))

  const addCustomRule = async (rule: CustomRule) => {
    let added = false
    await run(async () => {
      const view = await savePolicy({ ...saved, customRules: [...saved.customRules, rule] })
      const policy = toPolicyConfig(view)
      setSaved(policy)
      setDraft((current) => ({ ...current, customRules: policy.customRules }))
      setNotice({ tone: "success", text: `Custom rule "${rule.name}" added.` })
      added = true
    })
    return added
  }

  const removeCustomRule = (id: string) =>
    run(async () => {
      const view = await savePolicy({ ...saved, customRules: saved.customRules.filter((rule) => rule.id !== id) })
      const policy = toPolicyConfig(view)
      setSaved(policy)
      setDraft((current) => ({ ...current, customRules: policy.customRules }))
      setNotice({ tone: "success", text: "Custom rule removed." })
    })

  const exportPolicy = () => {
    const url = URL.createObjectURL(new Blob([policyFileContent(saved)], { type: "application/json" }))
    const link = document.createElement("a")
    link.href = url
    link.download = POLICY_FILE_NAME
    link.click()
    setTimeout(() => URL.revokeObjectURL(url), 0)
    setNotice({ tone: "success", text: `The active policy was exported as ${POLICY_FILE_NAME}.` })
  }

  const importPolicy = async (file: File) => {
    const result = await readPolicyFile(file)
    if (!result.ok) {
      setNotice({ tone: "error", text: `${file.name} was not imported: nothing changed.`, details: result.problems })
      return
    }
    await run(async () => apply(await savePolicy(result.policy), `Policy imported from ${file.name}.`))
  }

  const reset = () => {
    if (!window.confirm("Restore the default password policy? Your rules, messages and custom rules will be replaced.")) return
    void run(async () => apply(await savePolicy(createDefaultPasswordPolicy()), "The default policy was restored."))
  }

  const unsaved = JSON.stringify(saved) !== JSON.stringify(draft)
  const setRule = (rule: PolicyRule) => setDraft((current) => ({ ...current, rules: { ...current.rules, [rule.name]: rule } }))
  const setOption = <K extends keyof PasswordPolicyConfig>(key: K, value: PasswordPolicyConfig[K]) => setDraft((current) => ({ ...current, [key]: value }))

  return (
    <div className="space-y-6">
      <div className="sticky top-16 z-10 space-y-3 bg-gray-50/95 py-2 backdrop-blur">
        <div className="flex flex-wrap items-center gap-2">
          <button type="button" className={buttonStyles.primary} disabled={!unsaved || busy} onClick={() => void saveAll()}>
            Save changes
          </button>
          <button type="button" className={buttonStyles.secondary} disabled={!unsaved || busy} onClick={() => setDraft(saved)}>
            Discard changes
          </button>
          <span className="flex-1" />
          <button type="button" className={buttonStyles.secondary} onClick={exportPolicy} disabled={busy}>
            <Download aria-hidden="true" className="h-4 w-4" /> Export
          </button>
          <button type="button" className={buttonStyles.secondary} onClick={() => importInput.current?.click()} disabled={busy}>
            <Upload aria-hidden="true" className="h-4 w-4" /> Import
          </button>
          <input
            ref={importInput}
            type="file"
            accept="application/json,.json"
            hidden
            data-testid="policy-import"
            onChange={(event) => {
              const file = event.target.files?.[0]
              event.target.value = ""
              if (file) void importPolicy(file)
            }}
          />
          <button type="button" className={buttonStyles.secondary} onClick={reset} disabled={busy}>
            <RotateCcw aria-hidden="true" className="h-4 w-4" /> Reset to default
          </button>
        </div>
        {unsaved && <p className="text-xs text-amber-700">You have unsaved changes.</p>}
        <NoticeBox notice={notice} />
      </div>

      <Section title="Rules" description="Each rule is checked on the next registration or password change once it is saved.">
        <ul className="space-y-3">
          {BUILT_IN_RULE_NAMES.map((name) => (
            <RuleEditor key={name} saved={saved.rules[name]} draft={draft.rules[name]} onChange={setRule} onSave={() => void saveOneRule(name)} busy={busy} />
          ))}
        </ul>
      </Section>

      <Section title="Options">
        <div className="flex flex-wrap gap-6">
          <Checkbox label="Strict mode (every enabled rule is required)" checked={draft.strictMode} onChange={(value) => setOption("strictMode", value)} />
          <Checkbox label="Allow override of ADMIN_PASSWORD" checked={draft.allowOverride} onChange={(value) => setOption("allowOverride", value)} />
          <Checkbox label="Log violations" checked={draft.logViolations} onChange={(value) => setOption("logViolations", value)} />
        </div>
        <div className="mt-4 grid gap-4 sm:grid-cols-2">
          <TextField
            label="Sign-in attempts before lockout"
            type="number"
            min={BOUNDS.rateLimitAttempts.min}
            max={BOUNDS.rateLimitAttempts.max}
            value={draft.rateLimitAttempts}
            onChange={(event) => setOption("rateLimitAttempts", Number(event.target.value))}
          />
          <TextField
            label="Lockout duration (milliseconds)"
            type="number"
            min={BOUNDS.lockoutDuration.min}
            max={BOUNDS.lockoutDuration.max}
            value={draft.lockoutDuration}
            hint={`${Math.round((draft.lockoutDuration / 60_000) * 10) / 10} minutes`}
            onChange={(event) => setOption("lockoutDuration", Number(event.target.value))}
          />
        </div>
      </Section>

      <Section title="Messages" description="Overrides of failure messages by error code; they replace the rule's own message.">
        <MessagesEditor messages={draft.messages} onChange={(messages) => setOption("messages", messages)} />
      </Section>

      <Section title="Custom rules" description="Regular expressions a password must match or must not match. Adding or removing a rule saves it at once.">
        {saved.customRules.length === 0 ? (
          <p className="text-sm text-gray-500">No custom rules.</p>
        ) : (
          <ul className="mb-4 space-y-2">
            {saved.customRules.map((rule) => (
              <li key={rule.id} className="flex items-start justify-between gap-3 rounded-xl border border-gray-200 p-3">
                <div className="min-w-0 text-sm">
                  <p className="font-semibold">{rule.name}</p>
                  <p className="font-mono text-xs text-gray-500">
                    {rule.errorCode} · {rule.mode === "mustMatch" ? "must match" : "must not match"} <span className="break-all">{rule.regex}</span>
                  </p>
                  <p className="text-gray-600">{rule.message}</p>
                  <p className="text-xs text-gray-500">
                    {rule.enabled ? "Enabled" : "Disabled"} · {rule.required ? "Required" : "Optional"}
                  </p>
                </div>
                <button type="button" className={buttonStyles.ghost} onClick={() => void removeCustomRule(rule.id)} disabled={busy} aria-label={`Remove custom rule ${rule.name}`}>
                  <Trash2 aria-hidden="true" className="h-4 w-4" /> Remove
                </button>
              </li>
            ))}
          </ul>
        )}
        <CustomRuleForm existing={saved.customRules} onAdd={addCustomRule} busy={busy} />
      </Section>
    </div>
  )
}

export default function PasswordPolicyPage() {
  const policy = useQuery({ queryKey: ["admin-password-policy"], queryFn: fetchAdminPolicy, staleTime: 0, gcTime: 0 })
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
        <NoticeBox notice={problemsOf(policy.error)} />
      ) : (
        <PolicyEditor initial={policy.data} />
      )}
    </div>
  )
}
