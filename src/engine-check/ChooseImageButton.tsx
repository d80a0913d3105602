// The engine check page's "Choose an image…" button: a label styled as a button around a hidden
// file input, so the browser's own file chooser opens and the input stays reachable for tests.
import { buttonStyles } from "~ui/styles"

export function ChooseImageButton({ testId, disabled, onFile }: { testId: string; disabled: boolean; onFile: (file: File) => void }) {
  return (
    <label className={buttonStyles.secondary + (disabled ? " pointer-events-none opacity-50" : " cursor-pointer")}>
      Choose an image…
      <input
        type="file"
        accept="image/*"
        className="sr-only"
        data-testid={testId}
        disabled={disabled}
        onChange={(event) => {
          const file = event.currentTarget.files?.[0]
          // Cleared so that picking the same file again is a change too.
          event.currentTarget.value = ""
          if (file) onFile(file)
        }}
      />
    </label>
  )
}
