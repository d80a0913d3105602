import type { ObjectsResult as Objects } from "~analysis/objects"
import { percent } from "~core/format"

import { FoundList } from "./FoundList"

/** The objects recognised on this computer: how many, each with its label and score. */
export function ObjectsResult({ result }: { result: Objects }) {
  const { objects } = result
  return (
    <FoundList
      label="Objects found"
      count={objects.length}
      one="object"
      many="objects"
      none="No objects recognised in this image."
      testId="objects-count"
      list={
        <ul className="divide-y divide-gray-100 rounded-lg border border-gray-200 bg-white text-sm" aria-label="Objects">
          {objects.map((object, index) => (
            <li key={index} className="flex justify-between px-3 py-1.5">
              <span>{object.label}</span>
              <span className="text-gray-600">{percent(object.score)}</span>
            </li>
          ))}
        </ul>
      }
    />
  )
}
