import { describe, expect, it } from "vitest"

import { imageFileOf } from "./use-pasted-image"

/** What a paste or a drop delivers: happy-dom has no DataTransfer, and the hook reads only `files`. */
const transfer = (...files: File[]) => ({ files }) as unknown as DataTransfer

describe("an image pasted or dropped into the panel", () => {
  it("takes the first image file, ignores text-only pastes, and names a file that is not an image", () => {
    const png = new File([new Uint8Array([1])], "shot.png", { type: "image/png" })
    expect(imageFileOf(transfer(new File(["x"], "notes.txt", { type: "text/plain" }), png))).toBe(png)
    expect(imageFileOf(transfer())).toBeNull()
    expect(imageFileOf(null)).toBeNull()
    expect(imageFileOf(transfer(new File(["x"], "notes.txt", { type: "text/plain" })))).toBe("not-an-image")
  })
})
