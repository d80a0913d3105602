import type { ObjectsResult as Objects } from "~analysis/objects"
import { percent } from "~core/format"

import { FoundCount } from "./FoundCount"

export function ObjectsResult({ result }: { result: Objects }) {
  const { objects } = result
  return (
    <section aria-label="Objects found" className="space-y-2">
      <FoundCount count={objects.length} one="object" many="objects" none="No objects recognised in this image." testId="objects-count" />
      {objects.length > 0 && (
        <ul className="divide-y divide-gray-100 rounded-lg border border-gray-200 bg-white text-sm" aria-label="Objects">
          {objects.map((object, index) => (
            <li key={index} className="flex justify-between px-3 py-1.5">
              <span>{object.label}</span>
              <span className="text-gray-600">{percent(object.score)}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
