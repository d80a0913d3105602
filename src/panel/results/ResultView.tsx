import type { BoxTone, LabelledBox } from "~ui/BoxOverlay"

import type { AnalysisOutcome } from "../analyses"
import { AnswerResult } from "./AnswerResult"
import { FacesResult } from "./FacesResult"
import { ObjectsResult } from "./ObjectsResult"
import { TextResult } from "./TextResult"
import type { LinesTranslation } from "./TranslateText"

export interface ResultViewProps {
  outcome: AnalysisOutcome
  keepTextLayout: boolean
  onKeepTextLayoutChange: (keepLayout: boolean) => void
  onUsageChanged: () => void
  /** The line of the text block in focus (null: none), for the text layer to outline. */
  onTextLineFocus?: (line: number | null) => void
  /** Lays an image's translated lines over it. */
  onShowTranslation?: (translation: LinesTranslation) => void
  /** Translate the text at once and show it on the image (*Translate image*). */
  autoTranslate?: boolean
}

export function ResultView({ outcome, keepTextLayout, onKeepTextLayoutChange, onUsageChanged, onTextLineFocus, onShowTranslation, autoTranslate }: ResultViewProps) {
  switch (outcome.kind) {
    case "text":
      return (
        <TextResult
          ocr={outcome.ocr}
          reading={outcome.reading}
          keepLayout={keepTextLayout}
          onKeepLayoutChange={onKeepTextLayoutChange}
          onUsageChanged={onUsageChanged}
          onLineFocus={onTextLineFocus}
          onShowTranslation={onShowTranslation}
          autoTranslate={autoTranslate}
        />
      )
    case "faces":
      return <FacesResult result={outcome.faces} />
    case "objects":
      return <ObjectsResult result={outcome.objects} />
    case "scene":
    case "ask":
      return <AnswerResult outcome={outcome} />
  }
}

/** The boxes a result draws over its image: words read, numbered faces, labelled objects. */
export function resultBoxes(outcome: AnalysisOutcome | null): { boxes: LabelledBox[]; tone: BoxTone } {
  switch (outcome?.kind) {
    case "text":
      return { tone: "text", boxes: outcome.ocr.words.map(({ bbox }) => ({ x: bbox.x0, y: bbox.y0, width: bbox.x1 - bbox.x0, height: bbox.y1 - bbox.y0 })) }
    case "faces":
      return { tone: "face", boxes: outcome.faces.faces.map((face, index) => ({ ...face.box, label: String(index + 1) })) }
    case "objects":
      return { tone: "object", boxes: outcome.objects.objects.map((object) => ({ ...object.box, label: object.label })) }
    default:
      return { tone: "text", boxes: [] }
  }
}
