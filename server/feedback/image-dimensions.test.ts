import fs from "node:fs/promises"

import { describe, expect, it } from "vitest"

import { imageDimensions, type ReadAt } from "./image-dimensions"

const PNG = await fs.readFile(new URL("../../tests/fixtures/square-512.png", import.meta.url))
/** A 1×1 GIF. */
const GIF = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64")

const reader =
  (bytes: Uint8Array): ReadAt =>
  async (position, length) =>
    bytes.subarray(position, position + length)

const segment = (marker: number, body: number[]) => [0xff, marker, (body.length + 2) >> 8, (body.length + 2) & 0xff, ...body]
const frame = (marker: number, width: number, height: number) => segment(marker, [8, height >> 8, height & 0xff, width >> 8, width & 0xff, 1, 1, 0x11, 0])
const jpeg = (...parts: number[][]) => Uint8Array.from([0xff, 0xd8, ...parts.flat()])

describe("imageDimensions", () => {
  it("reads PNG's IHDR and GIF's logical screen", async () => {
    expect(await imageDimensions("image/png", reader(PNG))).toEqual({ width: 512, height: 512 })
    expect(await imageDimensions("image/gif", reader(GIF))).toEqual({ width: 1, height: 1 })
    const huge = Buffer.from(PNG)
    huge.writeUInt32BE(0xffffffff, 16)
    expect(await imageDimensions("image/png", reader(huge))).toEqual({ width: 0xffffffff, height: 512 })
  })

  it("walks JPEG segments to the frame header, past fill bytes, restart markers and large metadata", async () => {
    const exif = segment(0xe1, Array<number>(40_000).fill(0x45))
    expect(await imageDimensions("image/jpeg", reader(jpeg(segment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0]), exif, frame(0xc0, 640, 480))))).toEqual({ width: 640, height: 480 })
    // Progressive, after a Huffman table (C4, not a frame) and fill bytes.
    expect(await imageDimensions("image/jpeg", reader(jpeg(segment(0xc4, [0, 1, 2]), [0xff, 0xff], [0xff, 0xd0], frame(0xc2, 9000, 7000))))).toEqual({ width: 9000, height: 7000 })
  })

  it("answers null when the header cannot be read", async () => {
    expect(await imageDimensions("image/png", reader(PNG.subarray(0, 20)))).toBeNull()
    const notIhdr = Buffer.from(PNG)
    notIhdr.write("IDAT", 12, "latin1")
    expect(await imageDimensions("image/png", reader(notIhdr))).toBeNull()
    expect(await imageDimensions("image/gif", reader(GIF.subarray(0, 8)))).toBeNull()
    // Image data, or the end, before any frame header; a segment running past the end; a bad length; garbage.
    expect(await imageDimensions("image/jpeg", reader(jpeg(segment(0xda, [0, 0]), frame(0xc0, 1, 1))))).toBeNull()
    expect(await imageDimensions("image/jpeg", reader(jpeg([0xff, 0xd9])))).toBeNull()
    expect(await imageDimensions("image/jpeg", reader(jpeg(segment(0xe1, [1, 2, 3]).slice(0, 4))))).toBeNull()
    expect(await imageDimensions("image/jpeg", reader(jpeg([0xff, 0xe0, 0x00, 0x01])))).toBeNull()
    expect(await imageDimensions("image/jpeg", reader(jpeg(Array<number>(50).fill(7))))).toBeNull()
    expect(await imageDimensions("image/jpeg", reader(jpeg(frame(0xc0, 4, 4)).subarray(0, 9)))).toBeNull()
  })
})
