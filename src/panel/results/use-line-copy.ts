import { useCallback, useEffect, useRef, useState } from "react"

import { copyText } from "~ui/clipboard"

const STATUS_MS = 2000

/** Copies one line of the read text and says so for a moment: the text block and the layer over the image. */
export function useLineCopy(): { status: string; copyLine: (line: string) => void } {
  const [status, setStatus] = useState("")
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined)
  useEffect(() => () => clearTimeout(timer.current), [])
  const copyLine = useCallback(
    (line: string) =>
      void copyText(line).then((copied) => {
        setStatus(copied ? "Line copied" : "The line could not be copied")
        clearTimeout(timer.current)
        timer.current = setTimeout(() => setStatus(""), STATUS_MS)
      }),
    []
  )
  return { status, copyLine }
}
