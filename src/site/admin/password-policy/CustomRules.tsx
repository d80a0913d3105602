/**
 * The custom rules: the saved ones, each with its remove button, and the form that adds one. Both save at once,
 * apart from the draft of the other sections.
 */
import { useState } from "react"

import { CUSTOM_ERROR_CODE_PATTERN, customRuleSchema, PASSWORD_POLICY_BOUNDS as BOUNDS, type CustomRule } from "~core/password-policy"
import { Checkbox, SelectField, TextField } from "~ui/fields"
import { Plus, Trash2 } from "~ui/icons"
import { buttonStyles } from "~ui/styles"

export const CUSTOM_RULE_REQUIRED_MESSAGE = "Name, message, and error code are required"

const emptyCustomRule = { name: "", errorCode: "", message: "", regex: "", mode: "mustMatch" as CustomRule["mode"], enabled: true, required: true }

/** "custom-no-company-name", with a number after it when that id is taken. */
function newRuleId(name: string, taken: Set<string>): string {
  const base = name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 40) || "rule"
  let id = `custom-${base}`
  for (let suffix = 2; taken.has(id); suffix++) id = `custom-${base}-${suffix}`
  return id
}

interface CustomRuleFormProps {
  existing: CustomRule[]
  /** Saves the rule; `whenAdded` clears the form once the server kept it. */
  onAdd: (rule: CustomRule, whenAdded: () => void) => void
  busy: boolean
}

function CustomRuleForm({ existing, onAdd, busy }: CustomRuleFormProps) {
  const [form, setForm] = useState(emptyCustomRule)
  const [problems, setProblems] = useState<string[]>([])

  const submit = () => {
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
    onAdd(parsed.data, () => setForm(emptyCustomRule))
  }

  return (
    <form
      aria-label="Add a custom rule"
      className="space-y-3 rounded-xl border border-dashed border-gray-300 p-4"
      noValidate
      onSubmit={(event) => {
        event.preventDefault()
        submit()
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
        <SelectField label="The password" value={form.mode} onChange={(event) => setForm({ ...form, mode: event.target.value as CustomRule["mode"] })}>
          <option value="mustMatch">must match the expression</option>
          <option value="mustNotMatch">must not match the expression</option>
        </SelectField>
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

interface CustomRulesProps {
  rules: CustomRule[]
  onAdd: CustomRuleFormProps["onAdd"]
  onRemove: (id: string) => void
  busy: boolean
}

export function CustomRules({ rules, onAdd, onRemove, busy }: CustomRulesProps) {
  return (
    <>
      {rules.length === 0 ? (
        <p className="text-sm text-gray-500">No custom rules.</p>
      ) : (
        <ul className="mb-4 space-y-2">
          {rules.map((rule) => (
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
              <button type="button" className={buttonStyles.ghost} onClick={() => onRemove(rule.id)} disabled={busy} aria-label={`Remove custom rule ${rule.name}`}>
                <Trash2 aria-hidden="true" className="h-4 w-4" /> Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <CustomRuleForm existing={rules} onAdd={onAdd} busy={busy} />
    </>
  )
}
