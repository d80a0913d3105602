/**
 * The brand editor (owner and admins): the display name, the accent colour (#rrggbb, typed or picked) and the logo
 * (checked here for its type and size, cropped by the server), beside a live preview of the side panel header that
 * follows every keystroke and the chosen file before it is sent.
 */
import { useEffect, useId, useMemo, useState, type ChangeEvent, type FormEvent } from "react"

import { createOrganizationSchema, ORGANIZATION_NAME_MAX_LENGTH, type Organization } from "~core/organizations"
import { failureText } from "~site/shared/failure-text"
import { TextField } from "~ui/fields"
import { Notice } from "~ui/Notice"
import { buttonStyles } from "~ui/styles"
import { useFormMutation } from "~site/shared/use-form-mutation"

import { BrandPreview } from "./BrandPreview"
import { updateOrganization, uploadLogo, useOrganizationChanged } from "./organization-requests"
import { figure } from "~site/shared/daily-figures"
import { accentColorOf, LOGO_RULES, LOGO_TYPES, logoProblem } from "./organization-view"

/** The picker's colour while the text is empty or unfinished: the product's blue. */
const PICKER_FALLBACK = "#3b82f6"

function LogoUpload({ onChosen, pending, onCancel }: { onChosen: (file: File | null) => void; pending: File | null; onCancel: () => void }) {
  const organizationChanged = useOrganizationChanged()
  const inputId = useId()
  const [problem, setProblem] = useState<string | null>(null)
  const [done, setDone] = useState(false)
  const uploading = useFormMutation({
    mutationFn: uploadLogo,
    onSuccess: (organization) => {
      setDone(true)
      onChosen(null)
      void organizationChanged(organization)
    },
    onError: (failure) => setProblem(failureText(failure))
  })

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0] ?? null
    event.target.value = ""
    setDone(false)
    if (!file) return
    const refusal = logoProblem(file)
    setProblem(refusal)
    onChosen(refusal ? null : file)
  }

  return (
    <div className="space-y-2">
      <label htmlFor={inputId} className="block text-sm font-medium text-gray-700">
        Logo
      </label>
      <input
        id={inputId}
        type="file"
        accept={LOGO_TYPES.join(",")}
        onChange={choose}
        aria-describedby={`${inputId}-rules`}
        className="block w-full text-sm text-gray-700 file:mr-3 file:rounded-lg file:border file:border-gray-300 file:bg-white file:px-3 file:py-2 file:text-sm file:font-semibold file:text-brand-secondary focus-ring"
      />
      <p id={`${inputId}-rules`} className="text-xs text-gray-500">
        {LOGO_RULES}
      </p>
      {pending && (
        <div className="flex flex-wrap items-center gap-2">
          <p className="min-w-0 flex-1 break-all text-sm text-gray-700">
            {pending.name} ({figure(Math.ceil(pending.size / 1024))} KB), shown in the preview
          </p>
          <button type="button" className={buttonStyles.primary} disabled={uploading.isPending} onClick={() => !uploading.isRunning() && uploading.mutate(pending)}>
            {uploading.isPending ? "Uploading..." : "Upload logo"}
          </button>
          <button type="button" className={buttonStyles.ghost} disabled={uploading.isPending} onClick={onCancel}>
            Cancel
          </button>
        </div>
      )}
      {problem && <Notice>{problem}</Notice>}
      {done && <Notice tone="success">The logo is uploaded: your members see it the next time their extension loads the account.</Notice>}
    </div>
  )
}

export function BrandEditor({ organization, accountLine }: { organization: Organization; accountLine: string }) {
  const organizationChanged = useOrganizationChanged()
  const [name, setName] = useState(organization.name)
  const [colorText, setColorText] = useState(organization.brand.accentColor ?? "")
  const [pendingLogo, setPendingLogo] = useState<File | null>(null)
  const [error, setError] = useState<{ field: "name" | "color" | "form"; text: string } | null>(null)
  const [saved, setSaved] = useState(false)
  const pendingUrl = useMemo(() => (pendingLogo ? URL.createObjectURL(pendingLogo) : null), [pendingLogo])
  useEffect(() => () => void (pendingUrl && URL.revokeObjectURL(pendingUrl)), [pendingUrl])

  const typedColor = accentColorOf(colorText)
  // Unfinished text keeps the colour saved, so the preview does not flash white while a colour is being typed.
  const previewColor = colorText.trim() === "" ? null : (typedColor ?? organization.brand.accentColor)

  const saving = useFormMutation({
    mutationFn: updateOrganization,
    onSuccess: (organization) => {
      setSaved(true)
      void organizationChanged(organization)
    },
    onError: (failure) => setError({ field: "form", text: failureText(failure) })
  })

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (saving.isRunning()) return
    setSaved(false)
    const parsedName = createOrganizationSchema.safeParse({ name })
    if (!parsedName.success) return setError({ field: "name", text: parsedName.error.issues[0]?.message ?? "Check the name" })
    if (colorText.trim() !== "" && !typedColor) return setError({ field: "color", text: "Write the colour as # and six hexadecimal digits, for example #1d4ed8." })
    const update: { name?: string; accentColor?: string | null } = {}
    if (parsedName.data.name !== organization.name) update.name = parsedName.data.name
    if (typedColor !== organization.brand.accentColor) update.accentColor = typedColor
    if (Object.keys(update).length === 0) return setError({ field: "form", text: "Nothing has changed since the last save." })
    setError(null)
    saving.mutate(update)
  }

  return (
    <div className="grid grid-cols-1 gap-8 lg:grid-cols-2">
      <div className="min-w-0 space-y-6">
        <form className="space-y-4" onSubmit={submit} noValidate>
          <TextField
            label="Display name"
            value={name}
            maxLength={ORGANIZATION_NAME_MAX_LENGTH}
            onChange={(event) => setName(event.target.value)}
            hint="Shown in your members' side panel and popup, and in your invitation e-mails."
            error={error?.field === "name" ? error.text : undefined}
          />
          <div className="flex items-start gap-3">
            <div className="min-w-0 flex-1">
              <TextField
                label="Accent colour"
                value={colorText}
                placeholder="#1d4ed8"
                maxLength={7}
                spellCheck={false}
                autoComplete="off"
                onChange={(event) => setColorText(event.target.value)}
                hint="Written #rrggbb. Leave it empty for the product's own white header."
                error={error?.field === "color" ? error.text : undefined}
              />
            </div>
            <input
              type="color"
              aria-label="Pick the accent colour"
              value={typedColor ?? PICKER_FALLBACK}
              onChange={(event) => setColorText(event.target.value)}
              className="mt-6 h-[38px] w-14 shrink-0 cursor-pointer rounded-lg border border-gray-300 bg-white p-1 focus-ring"
            />
          </div>
          {error?.field === "form" && <Notice>{error.text}</Notice>}
          {saved && <Notice tone="success">The brand is saved.</Notice>}
          <button type="submit" className={buttonStyles.primary} disabled={saving.isPending}>
            {saving.isPending ? "Saving..." : "Save brand"}
          </button>
        </form>
        <LogoUpload pending={pendingLogo} onChosen={setPendingLogo} onCancel={() => setPendingLogo(null)} />
      </div>
      <BrandPreview
        name={name.trim() || organization.name}
        accentColor={previewColor}
        logoUrl={pendingUrl ?? organization.brand.logoUrl}
        accountLine={accountLine}
        caption="Preview of the extension's side panel header for your members"
      />
    </div>
  )
}
