import type { FacesResult as Faces } from "~analysis/faces"
import { describeFace } from "~analysis/result-format"
import { countOf } from "~core/format"

export function FacesResult({ result }: { result: Faces }) {
  const { faces } = result
  return (
    <section aria-label="Faces found" className="space-y-2">
      <p className="text-sm font-medium" data-testid="faces-count">
        {faces.length === 0 ? "No faces found in this image." : `${countOf(faces.length, "face", "faces")} found`}
      </p>
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
