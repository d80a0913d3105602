export function Spinner({ label = "Loading" }: { label?: string }) {
  return (
    <div role="status" aria-live="polite" className="flex items-center justify-center py-16">
      <span
        aria-hidden="true"
        className="h-10 w-10 animate-spin rounded-full border-4 border-brand-primary/20 border-t-brand-primary"
      />
      <span className="sr-only">{label}</span>
    </div>
  )
}
