/**
 * The password-policy page's form state: the saved policy, the draft being edited, the notice above the rules, and
 * every change sent to the server through one react-query mutation (a rule, the whole draft, a custom rule added or
 * removed, an imported file, the default policy), so the page has one busy flag and one way to report a failure.
 */
import { useEffect, useState } from "react"

import { ApiRequestError } from "~http/http-client"
import {
  createDefaultPasswordPolicy,
  type BuiltInRuleName,
  type CustomRule,
  type PasswordPolicyConfig,
  type PolicyRule
} from "~core/password-policy"
import type { NoticeTone } from "~ui/Notice"
import { SECOND_MS } from "~core/time"
import { useFormMutation } from "~site/shared/use-form-mutation"

import { savePolicy, saveRule, toPolicyConfig, type AdminPolicyView } from "../admin-requests"
import { POLICY_FILE_NAME, policyFileContent, readPolicyFile } from "../policy-file"
import { RULE_LABELS } from "./rule-labels"

export const ADMIN_NOTICE_FADE_MS = 3 * SECOND_MS

export type PolicyNotice = { tone: Extract<NoticeTone, "success" | "error">; text: string; details?: string[] }

/** A failure in the admin's words: the server's message and its details, or what was thrown. */
export function problemsOf(error: unknown): PolicyNotice {
  if (error instanceof ApiRequestError) return { tone: "error", text: error.message, details: error.details }
  return { tone: "error", text: error instanceof Error ? error.message : String(error) }
}

/** Success notices fade after ADMIN_NOTICE_FADE_MS (3 s); errors stay until the next action. */
function useNotice() {
  const [notice, setNotice] = useState<PolicyNotice | null>(null)
  useEffect(() => {
    if (notice?.tone !== "success") return
    const timer = setTimeout(() => setNotice(null), ADMIN_NOTICE_FADE_MS)
    return () => clearTimeout(timer)
  }, [notice])
  return [notice, setNotice] as const
}

/** The fields of one rule that differ from the saved rule, as PUT /api/password-policy/rules takes them. */
export function ruleChanges(saved: PolicyRule, draft: PolicyRule): Record<string, unknown> {
  const changes: Record<string, unknown> = {}
  if (saved.enabled !== draft.enabled) changes.enabled = draft.enabled
  if (saved.required !== draft.required) changes.required = draft.required
  if (saved.value !== draft.value) changes.value = draft.value
  if (saved.message !== draft.message) changes.message = draft.message
  if ((saved.regex ?? "") !== (draft.regex ?? "")) changes.regex = draft.regex ? draft.regex : null
  return changes
}

/** What one save sends; a rule or a custom rule leaves the other edits in progress as they are. */
type PolicyChange =
  | { kind: "rule"; name: BuiltInRuleName }
  | { kind: "draft" }
  | { kind: "add-custom"; rule: CustomRule }
  | { kind: "remove-custom"; id: string }
  | { kind: "import"; policy: PasswordPolicyConfig; fileName: string }
  | { kind: "reset" }

export function usePolicyEditor(initial: AdminPolicyView) {
  const [saved, setSaved] = useState(() => toPolicyConfig(initial))
  const [draft, setDraft] = useState(saved)
  const [notice, setNotice] = useNotice()

  const send = (change: PolicyChange): Promise<AdminPolicyView> => {
    switch (change.kind) {
      case "rule":
        return saveRule({ ruleName: change.name, ...ruleChanges(saved.rules[change.name], draft.rules[change.name]) })
      case "draft":
        return savePolicy(draft)
      case "add-custom":
        return savePolicy({ ...saved, customRules: [...saved.customRules, change.rule] })
      case "remove-custom":
        return savePolicy({ ...saved, customRules: saved.customRules.filter((rule) => rule.id !== change.id) })
      case "import":
        return savePolicy(change.policy)
      case "reset":
        return savePolicy(createDefaultPasswordPolicy())
    }
  }

  const keep = (policy: PasswordPolicyConfig, change: PolicyChange): string => {
    setSaved(policy)
    switch (change.kind) {
      case "rule":
        setDraft((current) => ({ ...current, rules: { ...current.rules, [change.name]: policy.rules[change.name] } }))
        return `${RULE_LABELS[change.name]} saved.`
      case "add-custom":
      case "remove-custom":
        setDraft((current) => ({ ...current, customRules: policy.customRules }))
        return change.kind === "add-custom" ? `Custom rule "${change.rule.name}" added.` : "Custom rule removed."
      case "draft":
        setDraft(policy)
        return "Password policy saved."
      case "import":
        setDraft(policy)
        return `Policy imported from ${change.fileName}.`
      case "reset":
        setDraft(policy)
        return "The default policy was restored."
    }
  }

  const save = useFormMutation({
    mutationFn: send,
    onSuccess: (view, change) => setNotice({ tone: "success", text: keep(toPolicyConfig(view), change) }),
    onError: (error) => setNotice(problemsOf(error))
  })
  /** One change at a time: a second click in the same moment sends nothing (the page's buttons wait for `busy`). */
  const submit = (change: PolicyChange, whenSaved?: () => void) => {
    if (!save.isRunning()) save.mutate(change, { onSuccess: whenSaved })
  }

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
    submit({ kind: "import", policy: result.policy, fileName: file.name })
  }

  const reset = () => {
    if (!window.confirm("Restore the default password policy? Your rules, messages and custom rules will be replaced.")) return
    submit({ kind: "reset" })
  }

  return {
    saved,
    draft,
    notice,
    busy: save.isPending,
    unsaved: JSON.stringify(saved) !== JSON.stringify(draft),
    setRule: (rule: PolicyRule) => setDraft((current) => ({ ...current, rules: { ...current.rules, [rule.name]: rule } })),
    setOption: <K extends keyof PasswordPolicyConfig>(key: K, value: PasswordPolicyConfig[K]) => setDraft((current) => ({ ...current, [key]: value })),
    discard: () => setDraft(saved),
    saveRule: (name: BuiltInRuleName) => submit({ kind: "rule", name }),
    saveDraft: () => submit({ kind: "draft" }),
    /** `whenAdded` runs once the server kept the rule (the form then clears). */
    addCustomRule: (rule: CustomRule, whenAdded: () => void) => submit({ kind: "add-custom", rule }, whenAdded),
    removeCustomRule: (id: string) => submit({ kind: "remove-custom", id }),
    exportPolicy,
    importPolicy,
    reset
  }
}

export type PolicyEditorState = ReturnType<typeof usePolicyEditor>
