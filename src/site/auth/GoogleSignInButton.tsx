/**
 * Federated sign-in needs a configured identity project (FIREBASE_PROJECT_ID), which arrives with its
 * own issue; until then the button says plainly that it is not available instead of pretending.
 */
export function GoogleSignInButton({ label = "Continue with Google" }: { label?: string }) {
  return (
    <div>
      <button
        type="button"
        disabled
        aria-describedby="google-sign-in-note"
        className="inline-flex w-full items-center justify-center gap-2 rounded-lg border border-gray-300 bg-white px-5 py-2.5 text-sm font-semibold text-gray-400 shadow-sm"
      >
        {label}
      </button>
      <p id="google-sign-in-note" className="mt-2 text-center text-xs text-gray-500">
        Google sign-in is not configured on this server.
      </p>
    </div>
  )
}
