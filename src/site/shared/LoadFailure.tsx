/**
 * A query's failure as every page and card of the site shows it ("We could not load the domains." with the reason, and
 * Try again), and the "Loading …" line the pages without a spinner show before it.
 */
import { Notice } from "~ui/Notice"
import { buttonStyles } from "~ui/styles"

import { failureText } from "./failure-text"

/** What of a TanStack query these read: a retry refetches it. */
interface LoadedQuery {
  isPending: boolean
  isError: boolean
  error: unknown
  refetch: () => unknown
}

interface LoadFailureProps {
  /** What could not be loaded, as the sentence names it: "the domains", "your subscription". */
  subject: string
  query: Pick<LoadedQuery, "error" | "refetch">
  /** The reason in words; the billing pages word theirs with billingErrorMessage. */
  reason?: (error: unknown) => string
  /** The spacing the page around it wants. */
  className?: string
}

export function LoadFailure({ subject, query, reason = failureText, className = "space-y-3" }: LoadFailureProps) {
  return (
    <div className={className}>
      <Notice>{`We could not load ${subject}. ${reason(query.error)}`}</Notice>
      <button type="button" className={buttonStyles.secondary} onClick={() => void query.refetch()}>
        Try again
      </button>
    </div>
  )
}

/** "Loading …" while the query runs, LoadFailure once it failed; the data is the caller's to show. */
export function QueryStatus({ subject, query }: { subject: string; query: LoadedQuery }) {
  return (
    <>
      {query.isPending && (
        <p role="status" className="text-gray-600">
          {`Loading ${subject}…`}
        </p>
      )}
      {query.isError && <LoadFailure subject={subject} query={query} />}
    </>
  )
}
