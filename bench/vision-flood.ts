// The flooding account of bench/vision-fairness.ts, in a process of its own that the bench starts at the lowest CPU
// priority: on a 2-core machine the attacker's own client would otherwise take a CPU from the server, which on a real
// deployment it does not have. It keeps CALLS_PER_KEY calls going on each key of IQA_FLOOD (JSON: {baseUrl, keys,
// image}, the image a path to a PNG), waiting the retryAfter of a refusal as a client library does, until SIGTERM;
// then it prints its counts as JSON.
import fs from "node:fs"

const CALLS_PER_KEY = 5

const { baseUrl, keys, image } = JSON.parse(process.env.IQA_FLOOD ?? "{}") as { baseUrl: string; keys: string[]; image: string }
const body = JSON.stringify({ image: { dataUrl: `data:image/png;base64,${fs.readFileSync(image).toString("base64")}` } })
const stop = new AbortController()
const counts = { answered: 0, refused: 0, other: 0 }

const loops = keys.flatMap((key) =>
  Array.from({ length: CALLS_PER_KEY }, async () => {
    while (!stop.signal.aborted) {
      const response = await fetch(`${baseUrl}/api/v1/ocr`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body,
        signal: stop.signal
      }).catch(() => null)
      if (!response) return
      const answer = (await response.json().catch(() => ({}))) as { error?: { retryAfter?: number } }
      if (response.status === 200) counts.answered++
      else if (response.status === 429) {
        counts.refused++
        await new Promise((resolve) => setTimeout(resolve, (answer.error?.retryAfter ?? 1) * 1000))
      } else counts.other++
    }
  })
)

process.once("SIGTERM", () => {
  stop.abort()
  void Promise.all(loops).then(() => {
    process.stdout.write(JSON.stringify(counts))
    process.exit(0)
  })
})
process.stdout.write("flooding\n")
