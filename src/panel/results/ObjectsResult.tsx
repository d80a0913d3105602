import type { ObjectsResult as Objects } from "~analysis/objects"
import type { DetectedObject } from "~core/analysis/detections"
import { percent } from "~core/format"

import { FoundList, type FoundKind } from "./FoundList"

const OBJECTS: FoundKind<DetectedObject> = {
  label: "Objects found",
  count: { one: "object", many: "objects", none: "No objects recognised in this image.", testId: "objects-count" },
  list: { label: "Objects", className: "divide-y divide-gray-100 rounded-lg border border-gray-200 bg-white text-sm", itemClassName: "flex justify-between px-3 py-1.5" },
  item: (object) => (
    <>
      <span>{object.label}</span>
      <span className="text-gray-600">{percent(object.score)}</span>
    </>
  )
}

/** The objects recognised on this computer: how many, each with its label and score. */
export function ObjectsResult({ result }: { result: Objects }) {
  return <FoundList kind={OBJECTS} items={result.objects} />
}
