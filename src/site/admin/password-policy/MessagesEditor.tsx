/** The overrides of failure messages by error code: edit, remove, or add one for a code not yet overridden. */
import { useState } from "react"

import { CUSTOM_ERROR_CODE_PATTERN, PASSWORD_POLICY_BOUNDS as BOUNDS, type PasswordPolicyConfig } from "~core/password-policy"
import { CompactTextField, TextField } from "~ui/fields"
import { Trash2 } from "~ui/icons"
import { buttonStyles } from "~ui/styles"

type Messages = PasswordPolicyConfig["messages"]

export function MessagesEditor({ messages, onChange }: { messages: Messages; onChange: (messages: Messages) => void }) {
  const [code, setCode] = useState("")
  const entries = Object.entries(messages).filter((entry): entry is [string, string] => typeof entry[1] === "string")
  return (
    <div className="space-y-3">
      {entries.length === 0 && <p className="text-sm text-gray-500">No overrides: every rule uses its own message.</p>}
      <ul className="space-y-2">
        {entries.map(([key, text]) => (
          <li key={key} className="flex items-end gap-2">
            <div className="flex-1">
              <CompactTextField label={`Message for ${key}`} value={text} maxLength={BOUNDS.messageLength.max} onChange={(event) => onChange({ ...messages, [key]: event.target.value })} />
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
