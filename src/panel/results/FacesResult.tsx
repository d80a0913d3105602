import type { FacesResult as Faces } from "~analysis/faces"
import { describeFace } from "~analysis/result-format"

import { FoundList } from "./FoundList"

/** The faces found on this computer: how many, what each looks like, and which detector ran. */
export function FacesResult({ result }: { result: Faces }) {
  const { faces } = result
  return (
    <FoundList
      label="Faces found"
      count={faces.length}
      one="face"
      many="faces"
      none="No faces found in this image."
      testId="faces-count"
      list={
        <ol className="space-y-1 rounded-lg border border-gray-200 bg-white p-3 text-sm" aria-label="Faces">
          {faces.map((face, index) => (
            <li key={index}>
              <span className="font-medium">Face {index + 1}:</span> {describeFace(face)}
            </li>
          ))}
        </ol>
      }
    >
      <p className="text-xs text-gray-500">Detector: SSD MobileNet</p>
    </FoundList>
  )
}
