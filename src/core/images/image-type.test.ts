import { describe, expect, it } from "vitest"

import { imageTypeOf } from "./image-type"

describe("image types", () => {
  it("recognises images by their bytes only", () => {
    expect(imageTypeOf(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBe("image/png")
    expect(imageTypeOf(Buffer.from([0xff, 0xd8, 0xff, 0xdb]))).toBe("image/jpeg")
    expect(imageTypeOf(Buffer.from("GIF87a......"))).toBe("image/gif")
    expect(imageTypeOf(Buffer.from("GIF89a......"))).toBe("image/gif")
    expect(imageTypeOf(Buffer.from("RIFF\0\0\0\0WEBPVP8L"))).toBe("image/webp")
    expect(imageTypeOf(Buffer.from("RIFF\0\0\0\0WAVEfmt "))).toBeNull()
    expect(imageTypeOf(Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>"))).toBeNull()
    expect(imageTypeOf(Buffer.from([0x89, 0x50, 0x4e]))).toBeNull()
    expect(imageTypeOf(Buffer.alloc(0))).toBeNull()
  })
})
