import { Dialog } from "radix-ui"
import { useId, useRef, useState, type KeyboardEvent } from "react"

import { PRODUCT_NAME } from "~core/company"
import { Checkbox } from "~ui/fields"
import { buttonStyles } from "~ui/styles"

import { LegalDocument } from "./LegalDocument"
import { PRIVACY_POLICY, TERMS_OF_SERVICE, type LegalDocumentContent } from "./legal-content"

export interface TermsModalProps {
  open: boolean
  /** The user ticked the agreement and chose "Accept and continue". */
  onAccept: () => void
  /** Cancel, Escape or a click on the overlay. */
  onDecline: () => void
  /** While the acceptance is being sent: the buttons are disabled and the dialog cannot be dismissed. */
  busy?: boolean
}

const TABS: readonly { key: "terms" | "privacy"; document: LegalDocumentContent }[] = [
  { key: "terms", document: TERMS_OF_SERVICE },
  { key: "privacy", document: PRIVACY_POLICY }
]

export const TERMS_AGREEMENT_LABEL = "I have read and agree to the Terms of Service and Privacy Policy"

/**
 * Shown before an account is created, and when a federated sign-in answers TERMS_NOT_ACCEPTED.
 * Radix traps focus, restores it on close and labels the dialog.
 */
export function TermsModal({ open, onAccept, onDecline, busy = false }: TermsModalProps) {
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(next) => {
        if (!next && !busy) onDecline()
      }}
    >
      <Dialog.Portal>
        <Dialog.Overlay data-terms-modal-overlay="" className="fixed inset-0 z-50 bg-gray-900/60" />
        <Dialog.Content className="fixed left-1/2 top-1/2 z-50 flex max-h-[90vh] w-[calc(100%-2rem)] max-w-2xl -translate-x-1/2 -translate-y-1/2 flex-col rounded-xl bg-white text-brand-secondary shadow-xl focus:outline-none">
          {/* Mounted only while open, so the checkbox and tab start fresh each time. */}
          <TermsModalBody onAccept={onAccept} onDecline={onDecline} busy={busy} />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}

function TermsModalBody({ onAccept, onDecline, busy }: Omit<TermsModalProps, "open"> & { busy: boolean }) {
  const baseId = useId()
  const [agreed, setAgreed] = useState(false)
  const [active, setActive] = useState(0)
  const tabRefs = useRef<(HTMLButtonElement | null)[]>([])

  const selectTab = (index: number) => {
    const next = (index + TABS.length) % TABS.length
    setActive(next)
    tabRefs.current[next]?.focus()
  }

  const onTabKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    const moves: Record<string, number> = { ArrowRight: active + 1, ArrowLeft: active - 1, Home: 0, End: TABS.length - 1 }
    const target = moves[event.key]
    if (target === undefined) return
    event.preventDefault()
    selectTab(target)
  }

  return (
    <>
      <div className="border-b border-gray-200 px-6 pb-4 pt-5">
        <Dialog.Title className="text-xl font-semibold tracking-tight">Terms of Service and Privacy Policy</Dialog.Title>
        <Dialog.Description className="mt-1 text-sm text-gray-600">
          To use {PRODUCT_NAME}, please read and accept our Terms of Service and Privacy Policy.
        </Dialog.Description>
        <div role="tablist" aria-label="Documents" className="mt-4 flex gap-1 rounded-lg bg-gray-100 p-1">
          {TABS.map((tab, index) => {
            const selected = index === active
            return (
              <button
                key={tab.key}
                ref={(element) => {
                  tabRefs.current[index] = element
                }}
                type="button"
                role="tab"
                id={`${baseId}-tab-${tab.key}`}
                aria-selected={selected}
                aria-controls={`${baseId}-panel-${tab.key}`}
                tabIndex={selected ? 0 : -1}
                onClick={() => setActive(index)}
                onKeyDown={onTabKeyDown}
                className={`flex-1 rounded-md px-3 py-1.5 text-sm font-medium transition focus-ring focus-visible:outline-offset-2 ${
                  selected ? "bg-white text-brand-secondary shadow-sm" : "text-gray-600 hover:text-brand-secondary"
                }`}
              >
                {tab.document.title}
              </button>
            )
          })}
        </div>
      </div>

      {TABS.map((tab, index) => (
        // Each panel scrolls on its own and keeps its place when the other tab is shown.
        <div
          key={tab.key}
          role="tabpanel"
          id={`${baseId}-panel-${tab.key}`}
          aria-labelledby={`${baseId}-tab-${tab.key}`}
          hidden={index !== active}
          tabIndex={0}
          className="min-h-0 flex-1 overflow-y-auto px-6 py-5 focus:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-brand-primary"
        >
          <LegalDocument document={tab.document} variant="modal" headingLevel={3} />
        </div>
      ))}

      <div className="border-t border-gray-200 px-6 py-4">
        <Checkbox label={TERMS_AGREEMENT_LABEL} checked={agreed} disabled={busy} onChange={setAgreed} />
        <div className="mt-4 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <button type="button" onClick={onDecline} disabled={busy} className={`${buttonStyles.secondary} disabled:cursor-not-allowed disabled:opacity-60`}>
            Cancel
          </button>
          <button
            type="button"
            onClick={onAccept}
            disabled={!agreed || busy}
            aria-busy={busy || undefined}
            className={`${buttonStyles.primary} disabled:cursor-not-allowed disabled:opacity-60 disabled:hover:bg-blue-600`}
          >
            {busy && (
              <span aria-hidden="true" className="h-4 w-4 animate-spin rounded-full border-2 border-white/40 border-t-white" />
            )}
            Accept and continue
          </button>
        </div>
      </div>
    </>
  )
}
