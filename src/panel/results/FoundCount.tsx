import { countOf } from "~core/format"

/** "3 faces found", or what to say when there are none. */
export function FoundCount({ count, one, many, none, testId }: { count: number; one: string; many: string; none: string; testId: string }) {
  return (
    <p className="text-sm font-medium" data-testid={testId}>
      {count === 0 ? none : `${countOf(count, one, many)} found`}
    </p>
  )
}
