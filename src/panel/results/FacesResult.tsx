import type { FacesResult as Faces } from "~analysis/faces"
import { describeFace } from "~analysis/result-format"
import type { DetectedFace } from "~core/analysis/detections"

import { FoundList, type FoundKind } from "./FoundList"

const FACES: FoundKind<DetectedFace> = {
  label: "Faces found",
  count: { one: "face", many: "faces", none: "No faces found in this image.", testId: "faces-count" },
  list: { numbered: true, label: "Faces", className: "space-y-1 rounded-lg border border-gray-200 bg-white p-3 text-sm" },
  item: (face, index) => (
    <>
      <span className="font-medium">Face {index + 1}:</span> {describeFace(face)}
    </>
  )
}

/** The faces found on this computer: how many, what each looks like, and which detector ran. */
export function FacesResult({ result }: { result: Faces }) {
  return (
    <FoundList kind={FACES} items={result.faces}>
      <p className="text-xs text-gray-500">Detector: SSD MobileNet</p>
    </FoundList>
  )
}
