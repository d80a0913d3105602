/**
 * The feedback form's rules and texts. The only double is the network:
 * a fake fetch behind configureApi that records the multipart body and answers in the wrapper.
 */
import { QueryClient, QueryClientProvider } from "@tanstack/react-query"
import { fireEvent, render as renderElement, screen, waitFor, within } from "@testing-library/react"
import type { ReactElement } from "react"
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"

import { configureApi } from "~site-session/site-client"
import { fail, ok } from "~core/api-answer"
import { FEEDBACK_TEXTS } from "~core/admin/feedback"
import { FEEDBACK_MAX_IMAGE_BYTES } from "~core/admin/feedback"

import { FeedbackForm } from "./FeedbackForm"

const PNG_HEAD = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
const png = (name: string, size = 64) => new File([new Uint8Array([...PNG_HEAD, ...new Uint8Array(Math.max(0, size - 8))])], name, { type: "image/png" })

/** The form sends through react-query, so it renders inside a client of its own. */
const render = (form: ReactElement) => renderElement(<QueryClientProvider client={new QueryClient()}>{form}</QueryClientProvider>)

/** What the server answers a sent form: the feedback as stored. */
const SENT_FEEDBACK = { id: "f1", email: "ada@example.com", message: "Hello", status: "pending", images: [], replies: [], createdAt: "2030-01-01T00:00:00.000Z", updatedAt: "2030-01-01T00:00:00.000Z" }

let sent: FormData[] = []
let respond: () => Promise<Response>

beforeEach(() => {
  sent = []
  respond = async () => new Response(JSON.stringify(ok(SENT_FEEDBACK)), { status: 201, headers: { "content-type": "application/json" } })
  configureApi({
    baseUrl: "http://api.test",
    fetch: async (input, init) => {
      const request = input instanceof Request ? input : new Request(input, init)
      sent.push(await request.formData())
      return respond()
    }
  })
  vi.spyOn(URL, "createObjectURL").mockImplementation(() => `blob:preview-${Math.random()}`)
  vi.spyOn(URL, "revokeObjectURL").mockImplementation(() => {})
})
afterEach(() => configureApi({}))

function fillIn(email: string, message: string) {
  fireEvent.change(screen.getByLabelText("Email"), { target: { value: email } })
  fireEvent.change(screen.getByLabelText("Message"), { target: { value: message } })
}

function pick(...files: File[]) {
  fireEvent.change(screen.getByTestId("feedback-images"), { target: { files } })
}

describe("FeedbackForm", () => {
  it("checks the required fields and the minimum length with their messages, and counts characters", async () => {
    render(<FeedbackForm />)
    fireEvent.click(screen.getByRole("button", { name: "Send Feedback" }))
    expect(await screen.findByText(FEEDBACK_TEXTS.required)).toBeTruthy()
    fillIn("a@example.com", "   short    ")
    expect(screen.getByText("12/1000 characters")).toBeTruthy()
    fireEvent.click(screen.getByRole("button", { name: "Send Feedback" }))
    expect(await screen.findByText("Message must be at least 10 characters long.")).toBeTruthy()
    expect(sent).toHaveLength(0)
  })

  it("checks images by their bytes and size, caps them at five and lets them be removed", async () => {
    render(<FeedbackForm />)
    pick(new File(["just text"], "notes.png", { type: "image/png" }), png("huge.png", FEEDBACK_MAX_IMAGE_BYTES + 1), png("ok.png"))
    expect(await screen.findByText("notes.png is not a valid image file. Please select JPG, PNG, or GIF files.")).toBeTruthy()
    expect(screen.getByText("huge.png is too large. Maximum file size is 5MB.")).toBeTruthy()
    await waitFor(() => expect(within(screen.getByRole("list", { name: "Selected images" })).getAllByRole("img")).toHaveLength(1))

    pick(...Array.from({ length: 5 }, (_, index) => png(`extra-${index}.png`)))
    expect(await screen.findByText("Maximum 5 images allowed. Please remove some images before adding more.")).toBeTruthy()
    pick(...Array.from({ length: 4 }, (_, index) => png(`more-${index}.png`)))
    const maxed = await screen.findByRole("button", { name: "Maximum images reached" })
    expect((maxed as HTMLButtonElement).disabled).toBe(true)

    fireEvent.click(screen.getByRole("button", { name: "Remove ok.png" }))
    expect((screen.getByRole("button", { name: "Add images" }) as HTMLButtonElement).disabled).toBe(false)
    expect(within(screen.getByRole("list", { name: "Selected images" })).getAllByRole("img")).toHaveLength(4)
  })

  it("sends email, message and images, shows 'Sending Feedback...', then resets on success", async () => {
    let release!: () => void
    const answered = respond
    respond = () => new Promise<Response>((resolve) => (release = () => void answered().then(resolve)))
    render(<FeedbackForm />)
    fillIn("visitor@example.com", "The panel misses images.")
    pick(png("a.png"), png("b.png"))
    await screen.findByRole("button", { name: "Remove b.png" })
    fireEvent.click(screen.getByRole("button", { name: "Send Feedback" }))
    const sending = await screen.findByRole("button", { name: "Sending Feedback..." })
    expect((sending as HTMLButtonElement).disabled).toBe(true)
    await waitFor(() => expect(sent).toHaveLength(1))
    expect(sent[0]!.get("email")).toBe("visitor@example.com")
    expect(sent[0]!.get("message")).toBe("The panel misses images.")
    expect(sent[0]!.getAll("images").map((file) => (file as File).name)).toEqual(["a.png", "b.png"])
    release()
    expect(await screen.findByText(FEEDBACK_TEXTS.success)).toBeTruthy()
    expect((screen.getByLabelText("Message") as HTMLTextAreaElement).value).toBe("")
    expect((screen.getByLabelText("Email") as HTMLInputElement).value).toBe("")
    expect(screen.queryByRole("list", { name: "Selected images" })).toBeNull()
  })

  it.each([
    ["a server refusal", 400, "Validation failed: x.png is not a valid image file. Please select JPG, PNG, or GIF files.", "Validation failed: x.png is not a valid image file. Please select JPG, PNG, or GIF files."],
    ["a server failure", 503, "down", FEEDBACK_TEXTS.unavailable],
    ["another answer", 418, "teapot", FEEDBACK_TEXTS.failed]
  ])("keeps the fields after %s", async (_what, status, message, shown) => {
    respond = async () => new Response(JSON.stringify(fail("VALIDATION_FAILED", message)), { status, headers: { "content-type": "application/json" } })
    render(<FeedbackForm />)
    fillIn("visitor@example.com", "The panel misses images.")
    fireEvent.click(screen.getByRole("button", { name: "Send Feedback" }))
    expect(await screen.findByText(shown, { selector: "[role=alert]" })).toBeTruthy()
    expect((screen.getByLabelText("Message") as HTMLTextAreaElement).value).toBe("The panel misses images.")
  })

  it("hides the image part when feedback.fileUploads is off", () => {
    render(<FeedbackForm flags={{ fileUploads: false, emailNotifications: true }} />)
    expect(screen.queryByTestId("feedback-images")).toBeNull()
    expect(screen.queryByRole("button", { name: "Add images" })).toBeNull()
  })
})
