import type { FacesResult as Faces } from "~analysis/faces"
import { describeFace } from "~analysis/result-format"

import { FoundCount } from "./FoundCount"

export function FacesResult({ result }: { result: Faces }) {
  const { faces } = result
  return (
    <section aria-label="Faces found" className="space-y-2">
      <FoundCount count={faces.length} one="face" many="faces" none="No faces found in this image." testId="faces-count" />
      {faces.length > 0 && (
        <ol className="space-y-1 rounded-lg border border-gray-200 bg-white p-3 text-sm" aria-label="Faces">
          {faces.map((face, index) => (
            <li key={index}>
              <span className="font-medium">Face {index + 1}:</span> {describeFace(face)}
            </li>
          ))}
        </ol>
      )}
      <p className="text-xs text-gray-500">Detector: {result.detector === "ssd" ? "accurate (SSD MobileNet)" : "fast (Tiny Face Detector)"} · change it in Settings</p>
    </section>
  )
}
