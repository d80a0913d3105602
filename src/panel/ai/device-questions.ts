/**
 * Questions about an image answered by the browser's own model (the Prompt API), in the side panel. One session per
 * image: the next question about the same image goes to the same session, which holds the image and the turns so
 * far; a chat's earlier turns start a new session as its history. Sessions are destroyed when the image leaves the
 * panel's view (retainSessionsFor) and when the panel closes.
 */
import { languageModelApi, questionModelOptions } from "./built-in-ai"
import { DeviceEngineError } from "./device-errors"

export interface DeviceQuestion {
  /** The image's address: the session it is asked in. */
  imageKey: string
  image: Blob
  question: string
  /** Chat only: the turns so far about this image, oldest first. */
  history?: readonly { question: string; answer: string }[]
  signal?: AbortSignal
  /** Each piece of the answer as it comes, with the answer so far. */
  onPartial?: (answerSoFar: string) => void
}

interface ImageSession {
  session: Promise<LanguageModel>
  /** Questions answered in it, for telling whether a chat's history is the session's own. */
  turns: number
  /** Whether the image is in the session's context yet. */
  hasImage: boolean
}

const SYSTEM_PROMPT = "You answer questions about the image the person shows you. Answer briefly and plainly, from what the image shows; say so when it does not show the answer."

const sessions = new Map<string, ImageSession>()

function destroySession(key: string): void {
  const held = sessions.get(key)
  sessions.delete(key)
  void held?.session.then((session) => session.destroy()).catch(() => {})
}

/** Keeps the sessions of these images and destroys the others (the image in view changed). */
export function retainSessionsFor(imageKeys: readonly string[]): void {
  for (const key of [...sessions.keys()]) if (!imageKeys.includes(key)) destroySession(key)
}

/** Ends every session (the panel closes). */
export function destroyAllSessions(): void {
  for (const key of [...sessions.keys()]) destroySession(key)
}

if (typeof addEventListener === "function") addEventListener("pagehide", destroyAllSessions)

/** The session for this question: the image's own when it holds exactly the chat's turns (or no chat), else a new one. */
function sessionFor({ imageKey, history }: DeviceQuestion): ImageSession {
  const held = sessions.get(imageKey)
  if (held && (history === undefined || history.length === held.turns)) return held
  if (held) destroySession(imageKey)
  const api = languageModelApi()
  if (!api) throw new DeviceEngineError("This browser has no built-in AI model.", "unavailable")
  const earlier = (history ?? []).flatMap(({ question, answer }) => [
    { role: "user" as const, content: question },
    { role: "assistant" as const, content: answer }
  ])
  const created: ImageSession = {
    session: api.create({ ...questionModelOptions(), initialPrompts: [{ role: "system", content: SYSTEM_PROMPT }, ...earlier] }),
    turns: history?.length ?? 0,
    hasImage: false
  }
  created.session.catch(() => sessions.get(imageKey) === created && sessions.delete(imageKey))
  sessions.set(imageKey, created)
  return created
}

/** Reads a stream of answer pieces to its end, or until the signal stops it; the answer so far either way. */
async function readAnswer(stream: ReadableStream<string>, onPartial?: (answerSoFar: string) => void): Promise<string> {
  let answer = ""
  const reader = stream.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return answer
    answer += value
    onPartial?.(answer)
  }
}

/**
 * Asks the browser's model; the answer streams through `onPartial`. Resolves with the whole answer, or, when the
 * signal stops it, with what came until then and `stopped`. Rejects with a DeviceEngineError saying why it failed.
 */
export async function askOnDevice(request: DeviceQuestion): Promise<{ answer: string; stopped: boolean }> {
  const held = sessionFor(request)
  let answerSoFar = ""
  try {
    const session = await held.session
    const content: LanguageModelMessageContent[] = [{ type: "text", value: request.question }]
    // The image goes once per session: later questions about it are asked in the context that holds it.
    if (!held.hasImage) content.push({ type: "image", value: request.image })
    const stream = session.promptStreaming([{ role: "user", content }], { signal: request.signal })
    held.hasImage = true
    const answer = await readAnswer(stream, (soFar) => request.onPartial?.((answerSoFar = soFar)))
    held.turns++
    return { answer, stopped: false }
  } catch (error) {
    if (request.signal?.aborted) {
      // A stopped answer leaves the session's context unsure: the next question starts a new one.
      destroySession(request.imageKey)
      return { answer: answerSoFar, stopped: true }
    }
    destroySession(request.imageKey)
    throw DeviceEngineError.from(error, "questions")
  }
}
