/** A secret the server answers once (a SCIM token, a webhook's signing secret): said so, selectable, with a copy button. */
import { useState } from "react"

import { copyText } from "~ui/clipboard"
import { buttonStyles } from "~ui/styles"

export function ShownOnce({ title, value, copyLabel }: { title: string; value: string; copyLabel: string }) {
  const [copied, setCopied] = useState<boolean | null>(null)
  return (
    <div className="space-y-2 rounded-xl bg-emerald-50 p-3" role="status">
      <p className="font-medium text-emerald-900">{title} Copy it now: it is not shown again.</p>
      <div className="flex min-w-0 items-center gap-2">
        <code className="min-w-0 flex-1 select-all break-all rounded bg-white px-2 py-1 font-mono text-xs text-gray-900 ring-1 ring-gray-200">{value}</code>
        <button type="button" className={`${buttonStyles.secondary} !px-3 !py-1.5 whitespace-nowrap text-xs`} onClick={() => void copyText(value).then(setCopied)}>
          {copied === true ? "Copied" : copied === false ? "Copy failed" : copyLabel}
        </button>
      </div>
    </div>
  )
}
