/** One built-in rule's card: enabled and required, its value, message and optional expression, and its own save. */
import { isCharacterRule, PASSWORD_POLICY_BOUNDS as BOUNDS, type PolicyRule } from "~core/password-policy"
import { Checkbox, CompactTextField } from "~ui/fields"
import { buttonStyles } from "~ui/styles"

import { RULE_LABELS, VALUE_LABELS } from "./rule-labels"
import { ruleChanges } from "./use-policy-editor"

interface RuleEditorProps {
  saved: PolicyRule
  draft: PolicyRule
  onChange: (rule: PolicyRule) => void
  onSave: () => void
  busy: boolean
}

export function RuleEditor({ saved, draft, onChange, onSave, busy }: RuleEditorProps) {
  const name = draft.name
  const title = RULE_LABELS[name]
  const valueLabel = VALUE_LABELS[name]
  const changed = Object.keys(ruleChanges(saved, draft)).length > 0
  return (
    <li className="rounded-xl border border-gray-200 p-4" data-rule={name}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h3 className="font-semibold">{title}</h3>
          <p className="font-mono text-xs text-gray-500">
            {name} · {draft.errorCode}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-4">
          <Checkbox label="Enabled" checked={draft.enabled} onChange={(enabled) => onChange({ ...draft, enabled })} />
          <Checkbox label="Required" checked={draft.required} onChange={(required) => onChange({ ...draft, required })} />
          <button type="button" className={buttonStyles.secondary} disabled={!changed || busy} onClick={onSave} aria-label={`Save ${title}`}>
            Save rule
          </button>
        </div>
      </div>
      <div className="mt-3 grid gap-3 sm:grid-cols-[10rem_minmax(0,1fr)]">
        {valueLabel &&
          (typeof draft.value === "string" ? (
            <CompactTextField label={valueLabel} context={title} value={draft.value} onChange={(event) => onChange({ ...draft, value: event.target.value })} />
          ) : (
            <CompactTextField
              label={valueLabel}
              context={title}
              type="number"
              value={draft.value ?? ""}
              onChange={(event) => onChange({ ...draft, value: event.target.value === "" ? undefined : Number(event.target.value) })}
            />
          ))}
        <div className={valueLabel ? "" : "sm:col-span-2"}>
          <CompactTextField label="Message" context={title} maxLength={BOUNDS.messageLength.max} value={draft.message} onChange={(event) => onChange({ ...draft, message: event.target.value })} />
        </div>
        {isCharacterRule(name) && (
          <div className="sm:col-span-2">
            <CompactTextField
              label="Regular expression, replaces the built-in test (optional)"
              context={title}
              className="font-mono"
              value={draft.regex ?? ""}
              onChange={(event) => onChange({ ...draft, regex: event.target.value || undefined })}
            />
          </div>
        )}
      </div>
    </li>
  )
}
