import { fireEvent, render, screen } from "@testing-library/react"
import { describe, expect, it, vi } from "vitest"

import { ChooseImageButton } from "./ChooseImageButton"

describe("ChooseImageButton", () => {
  it("hands over the picked image, and nothing when the chooser was closed without one", () => {
    const onFile = vi.fn()
    render(<ChooseImageButton testId="pick" disabled={false} onFile={onFile} />)
    const input = screen.getByLabelText("Choose an image…")
    expect(input).toBe(screen.getByTestId("pick"))
    expect(input.getAttribute("accept")).toBe("image/*")

    const photo = new File(["pixels"], "photo.png", { type: "image/png" })
    fireEvent.change(input, { target: { files: [photo] } })
    expect(onFile).toHaveBeenCalledExactlyOnceWith(photo)

    fireEvent.change(input, { target: { files: [] } })
    expect(onFile).toHaveBeenCalledTimes(1)
  })

  it("cannot be used while disabled", () => {
    render(<ChooseImageButton testId="pick" disabled onFile={() => {}} />)
    const input = screen.getByTestId("pick") as HTMLInputElement
    expect(input.disabled).toBe(true)
    expect(input.closest("label")?.className).toContain("pointer-events-none")
  })
})
