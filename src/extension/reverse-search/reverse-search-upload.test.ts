import { describe, expect, it } from "vitest"

import { reverseSearchEngine } from "~core/analysis/reverse-search"

import { buildUploadForm } from "./reverse-search-upload"

describe("buildUploadForm", () => {
  it("posts the image to Bing's form as base64 text under imageBin, as multipart", async () => {
    const image = new Blob([new Uint8Array([137, 80, 78, 71, 1, 2, 3])], { type: "image/png" })
    const form = await buildUploadForm(reverseSearchEngine("bing")!, image)
    expect(form.method).toBe("post")
    expect(form.enctype).toBe("multipart/form-data")
    expect(form.action).toBe("https://www.bing.com/images/search?view=detailv2&iss=sbi&FORM=SBIIDP")
    expect(form.isConnected).toBe(true)
    const fields = [...new FormData(form).entries()]
    expect(fields).toEqual([["imageBin", Buffer.from([137, 80, 78, 71, 1, 2, 3]).toString("base64")]])
  })
})
