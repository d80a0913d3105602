/** The landing page's feedback form: e-mail, message and optional images, sent as multipart to POST /api/feedback. */
import { useEffect, useRef, useState, type FormEvent } from "react"

import { parseAnswer } from "~site-session/parse-answer"
import { getApiClient } from "~site-session/site-client"
import { FEATURE_FLAGS } from "~core/feature-flags"
import {
  detectFeedbackImageType,
  FEEDBACK_TEXTS,
  feedbackImageSizeProblem,
  feedbackTextProblem,
  feedbackSchema,
  IMAGE_SIGNATURE_BYTES,
  type Feedback,
  type FeedbackFlags
} from "~core/admin/feedback"
import { FEEDBACK_MAX_IMAGES, FEEDBACK_MESSAGE_DISPLAY_MAX } from "~core/admin/feedback"
import { TextareaField, TextField } from "~ui/fields"
import { ImagePlus, X } from "~ui/icons"
import { Notice } from "~ui/Notice"
import { buttonStyles } from "~ui/styles"
import { toast } from "~ui/toast"
import { useFormMutation } from "~site/shared/use-form-mutation"

import { feedbackSubmitError } from "./feedback-errors"

interface Picked {
  file: File
  previewUrl: string
}

/** The type from the file's own bytes, as the server checks it; the name and declared type are not trusted. */
async function imageProblem(file: File): Promise<string | null> {
  const head = new Uint8Array(await file.slice(0, IMAGE_SIGNATURE_BYTES).arrayBuffer())
  if (!detectFeedbackImageType(head)) return FEEDBACK_TEXTS.invalidType(file.name)
  return feedbackImageSizeProblem(file.name, file.size)
}

export async function submitFeedback(form: FormData): Promise<Feedback> {
  return parseAnswer(feedbackSchema, await getApiClient().postForm("/api/feedback", form))
}

/** The landing page's feedback form, open to anyone: a success clears the fields, a failure keeps them. */
export function FeedbackForm({ flags = FEATURE_FLAGS.feedback }: { flags?: FeedbackFlags }) {
  const [email, setEmail] = useState("")
  const [message, setMessage] = useState("")
  const [images, setImages] = useState<Picked[]>([])
  const [imageErrors, setImageErrors] = useState<string[]>([])
  const [outcome, setOutcome] = useState<{ tone: "success" | "error"; text: string } | null>(null)
  const fileInput = useRef<HTMLInputElement>(null)
  const imagesRef = useRef(images)
  const full = images.length >= FEEDBACK_MAX_IMAGES

  useEffect(() => {
    imagesRef.current = images
  }, [images])
  // Previews still shown when the page closes are freed with it.
  useEffect(() => () => imagesRef.current.forEach((image) => URL.revokeObjectURL(image.previewUrl)), [])

  const addFiles = async (files: File[]) => {
    if (!files.length) return
    if (images.length + files.length > FEEDBACK_MAX_IMAGES) {
      setImageErrors([FEEDBACK_TEXTS.tooMany])
      return
    }
    const checked = await Promise.all(files.map(async (file) => ({ file, problem: await imageProblem(file) })))
    setImageErrors(checked.flatMap(({ problem }) => (problem ? [problem] : [])))
    const accepted = checked.filter(({ problem }) => !problem).map(({ file }) => ({ file, previewUrl: URL.createObjectURL(file) }))
    setImages((current) => [...current, ...accepted].slice(0, FEEDBACK_MAX_IMAGES))
  }

  const removeImage = (index: number) => {
    setImages((current) => {
      URL.revokeObjectURL(current[index]!.previewUrl)
      return current.filter((_, position) => position !== index)
    })
    setImageErrors([])
  }

  const sending = useFormMutation({
    mutationFn: submitFeedback,
    onMutate: () => setOutcome(null),
    onSuccess: () => {
      imagesRef.current.forEach((image) => URL.revokeObjectURL(image.previewUrl))
      setEmail("")
      setMessage("")
      setImages([])
      setImageErrors([])
      setOutcome({ tone: "success", text: FEEDBACK_TEXTS.success })
      toast.success(FEEDBACK_TEXTS.success)
    },
    onError: (error) => {
      const text = feedbackSubmitError(error)
      setOutcome({ tone: "error", text })
      toast.error(text)
    }
  })
  const submitting = sending.isPending

  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    if (submitting || sending.isRunning()) return
    const problem = feedbackTextProblem(email, message)
    if (problem) {
      setOutcome({ tone: "error", text: problem })
      return
    }
    const form = new FormData()
    form.append("email", email.trim())
    form.append("message", message)
    if (flags.fileUploads) for (const image of images) form.append("images", image.file, image.file.name)
    sending.mutate(form)
  }

  return (
    <form onSubmit={onSubmit} noValidate className="mt-8 space-y-5 rounded-2xl bg-white p-6 text-left shadow-sm ring-1 ring-gray-200 sm:p-8" aria-label="Feedback">
      <TextField label="Email" type="email" name="email" autoComplete="email" required value={email} onChange={(event) => {
          setEmail(event.target.value)
          setOutcome(null)
        }} />
      <TextareaField
        label="Message"
        name="message"
        required
        rows={5}
        maxLength={FEEDBACK_MESSAGE_DISPLAY_MAX}
        value={message}
        onChange={(event) => {
          setMessage(event.target.value)
          setOutcome(null)
        }}
        hint={
          <p className="text-right">
            {message.length}/{FEEDBACK_MESSAGE_DISPLAY_MAX} characters
          </p>
        }
        placeholder="Ideas, problems or praise: tell us what happened and what you expected."
      />

      {flags.fileUploads && (
        <div>
          <p className="text-sm font-medium text-gray-700">Images (optional)</p>
          <p className="text-xs text-gray-500">Up to {FEEDBACK_MAX_IMAGES} JPG, PNG or GIF images, 5MB each.</p>
          <input
            ref={fileInput}
            type="file"
            accept="image/jpeg,image/png,image/gif"
            multiple
            hidden
            data-testid="feedback-images"
            onChange={(event) => {
              const files = Array.from(event.target.files ?? [])
              event.target.value = ""
              void addFiles(files)
            }}
          />
          <button type="button" className={`mt-2 ${buttonStyles.secondary}`} disabled={full || submitting} onClick={() => fileInput.current?.click()}>
            <ImagePlus aria-hidden="true" className="h-4 w-4" />
            {full ? FEEDBACK_TEXTS.maxReached : "Add images"}
          </button>
          {imageErrors.length > 0 && (
            <ul role="alert" className="mt-2 space-y-1 text-xs text-red-600">
              {imageErrors.map((error) => (
                <li key={error}>{error}</li>
              ))}
            </ul>
          )}
          {images.length > 0 && (
            <ul className="mt-3 flex flex-wrap gap-3" aria-label="Selected images">
              {images.map((image, index) => (
                <li key={image.previewUrl} className="relative">
                  <img src={image.previewUrl} alt={image.file.name} className="h-20 w-20 rounded-lg object-cover ring-1 ring-gray-200" />
                  <button
                    type="button"
                    onClick={() => removeImage(index)}
                    disabled={submitting}
                    aria-label={`Remove ${image.file.name}`}
                    className="absolute -right-2 -top-2 rounded-full bg-white p-1 text-gray-600 shadow ring-1 ring-gray-300 hover:text-red-600 focus-ring"
                  >
                    <X aria-hidden="true" className="h-3 w-3" />
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}

      {outcome && <Notice tone={outcome.tone}>{outcome.text}</Notice>}
      <button type="submit" className={`${buttonStyles.primary} w-full`} disabled={submitting}>
        {submitting ? FEEDBACK_TEXTS.sending : "Send Feedback"}
      </button>
    </form>
  )
}
