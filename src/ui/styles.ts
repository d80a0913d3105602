/** Shared class lists for the few control styles used across the site. */
export const buttonStyles = {
  primary:
    "inline-flex items-center justify-center gap-2 rounded-lg bg-blue-600 px-5 py-2.5 text-sm font-semibold text-white shadow-sm transition hover:bg-blue-700 focus-ring focus-visible:outline-offset-2 disabled:cursor-not-allowed disabled:opacity-50",
  secondary:
    "inline-flex items-center justify-center gap-2 rounded-lg border border-gray-300 bg-white px-5 py-2.5 text-sm font-semibold text-brand-secondary shadow-sm transition hover:bg-gray-50 focus-ring focus-visible:outline-offset-2 disabled:cursor-not-allowed disabled:opacity-50",
  /** A button that deletes or removes something. */
  danger:
    "inline-flex items-center justify-center gap-2 rounded-lg bg-red-600 px-5 py-2.5 text-sm font-semibold text-white shadow-sm transition hover:bg-red-700 focus-ring focus-visible:outline-offset-2 disabled:cursor-not-allowed disabled:opacity-50",
  ghost:
    "inline-flex items-center justify-center gap-2 rounded-lg px-3 py-2 text-sm font-medium text-gray-700 transition hover:bg-gray-100 hover:text-brand-secondary focus-ring focus-visible:outline-offset-2 disabled:cursor-not-allowed disabled:opacity-50",
  /** A button, or a router link inside a sentence, that reads as a link: blue words, underlined on hover. */
  link: "rounded font-medium text-blue-700 hover:underline focus-ring disabled:cursor-not-allowed disabled:opacity-50"
} as const
