import { OCR_SAMPLE_LINES } from "~engine-check/ocr-sample"

/**
 * A page script that draws the OCR sample into a 1000×500 canvas and shows it in the page's img#text from a blob: URL,
 * which only the page can read.
 */
export const DRAWN_TEXT_SCRIPT = `
  const lines = ${JSON.stringify(OCR_SAMPLE_LINES)}
  const canvas = document.createElement("canvas")
  canvas.width = 1000
  canvas.height = 500
  const context = canvas.getContext("2d")
  context.fillStyle = "#ffffff"
  context.fillRect(0, 0, canvas.width, canvas.height)
  context.fillStyle = "#000000"
  context.font = "bold 64px sans-serif"
  context.textBaseline = "top"
  lines.forEach((line, index) => context.fillText(line, 40, 60 + index * 120))
  canvas.toBlob((blob) => { document.getElementById("text").src = URL.createObjectURL(blob) }, "image/png")
`

/** The page the panel scans: every way an image can appear, sizes chosen for each filter. */
export const SIDE_PANEL_FIXTURE_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Side panel fixture</title>
<style>body{margin:8px} .bg{width:300px;height:180px;background:url(/bg-large.png) center/cover}</style></head>
<body>
<h1>Side panel fixture</h1>
<img id="text" alt="Drawn text">
<img src="/sample1.jpg" alt="Three people" width="480">
<img src="/medium.png" alt="Medium square" width="200">
<img src="/tiny.png" alt="Tiny icon">
<img srcset="/srcset-small.png 300w, /srcset-large.png 850w" sizes="850px" alt="Responsive" style="width:200px">
<div class="bg" title="Background"></div>
<div id="shadow-host"></div>
<div id="late-slot"></div>
<script>
  ${DRAWN_TEXT_SCRIPT}
  document.getElementById("shadow-host").attachShadow({ mode: "open" }).innerHTML = '<img src="/shadow.png" alt="In a shadow root" width="200">'
  setTimeout(() => {
    const late = document.createElement("img")
    late.src = "/late.png"
    late.alt = "Late"
    late.width = 200
    document.getElementById("late-slot").append(late)
  }, 800)
</script>
</body></html>`
