import { PRODUCT_NAME } from "~core/company"

/** The brand mark: an image frame with a lens, drawn in the brand colours. */
export function LogoMark({ className = "h-8 w-8" }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" className={className} aria-hidden="true" focusable="false">
      <rect x="1" y="1" width="30" height="30" rx="8" fill="#3B82F6" />
      <path d="M7 22l5-6 4 4 3-3 6 5v1H7z" fill="#ffffff" opacity="0.9" />
      <circle cx="21" cy="11" r="4.5" fill="none" stroke="#ffffff" strokeWidth="2" />
      <circle cx="21" cy="11" r="1.8" fill="#10B981" />
    </svg>
  )
}

export function Logo() {
  return (
    <span className="flex items-center gap-2 font-semibold text-brand-secondary">
      <LogoMark />
      <span>{PRODUCT_NAME}</span>
    </span>
  )
}
