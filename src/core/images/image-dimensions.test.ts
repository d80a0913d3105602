import fs from "node:fs/promises"
import path from "node:path"

import sharp from "sharp"
import { describe, expect, it } from "vitest"

import { imageDimensions, rasterTypeOf, RASTER_SIGNATURE_BYTES, type ReadAt } from "./image-dimensions"

const PNG = await fs.readFile(path.resolve(__dirname, "../../../tests/fixtures/square-512.png"))
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

  it("reads WebP's lossy, lossless and extended headers, as an encoder writes them", async () => {
    const picture = (options: { alpha?: boolean } = {}) =>
      sharp({ create: { width: 300, height: 170, channels: options.alpha ? 4 : 3, background: { r: 200, g: 40, b: 40, alpha: 0.5 } } })
    const lossy = await picture().webp().toBuffer()
    const lossless = await picture().webp({ lossless: true }).toBuffer()
    const extended = await picture({ alpha: true }).webp().toBuffer()
    expect(lossy.toString("latin1", 12, 16)).toBe("VP8 ")
    expect(lossless.toString("latin1", 12, 16)).toBe("VP8L")
    expect(extended.toString("latin1", 12, 16)).toBe("VP8X")
    for (const bytes of [lossy, lossless, extended]) {
      expect(rasterTypeOf(bytes.subarray(0, RASTER_SIGNATURE_BYTES))).toBe("image/webp")
      expect(await imageDimensions("image/webp", reader(bytes))).toEqual({ width: 300, height: 170 })
    }
  })

  it("reads AVIF's image extents, as an encoder writes them, and a huge one declared by hand", async () => {
    const avif = await sharp({ create: { width: 320, height: 180, channels: 3, background: "#3366cc" } }).avif().toBuffer()
    expect(rasterTypeOf(avif.subarray(0, RASTER_SIGNATURE_BYTES))).toBe("image/avif")
    expect(await imageDimensions("image/avif", reader(avif))).toEqual({ width: 320, height: 180 })
    const box = (type: string, body: number[]) => [0, 0, (body.length + 8) >> 8, (body.length + 8) & 0xff, ...[...type].map((char) => char.charCodeAt(0)), ...body]
    const u32 = (value: number) => [value >>> 24, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff]
    const ispe = (width: number, height: number) => box("ispe", [0, 0, 0, 0, ...u32(width), ...u32(height)])
    const declared = Uint8Array.from([
      ...box("ftyp", [...[..."avifmif1"].map((char) => char.charCodeAt(0)), 0, 0, 0, 0]),
      ...box("meta", [0, 0, 0, 0, ...box("hdlr", [0, 0, 0, 0]), ...box("iprp", box("ipco", [...ispe(512, 512), ...ispe(100_000, 80_000)]))])
    ])
    expect(await imageDimensions("image/avif", reader(declared))).toEqual({ width: 100_000, height: 80_000 })
    // Boxes cut short or without extents: nothing to go by.
    expect(await imageDimensions("image/avif", reader(declared.subarray(0, 40)))).toBeNull()
  })

  it("reads BMP's two header forms, top-down ones too", async () => {
    const bmp = (dib: number[]) => Uint8Array.from([0x42, 0x4d, ...Array<number>(12).fill(0), ...dib])
    const le32 = (value: number) => [value & 0xff, (value >>> 8) & 0xff, (value >>> 16) & 0xff, (value >>> 24) & 0xff]
    const windows = bmp([...le32(40), ...le32(4000), ...le32(-3000), 1, 0, 24, 0])
    expect(rasterTypeOf(windows)).toBe("image/bmp")
    expect(await imageDimensions("image/bmp", reader(windows))).toEqual({ width: 4000, height: 3000 })
    expect(await imageDimensions("image/bmp", reader(bmp([...le32(12), 0x20, 0x03, 0x58, 0x02, 1, 0, 24, 0])))).toEqual({ width: 800, height: 600 })
    expect(await imageDimensions("image/bmp", reader(bmp([40, 0, 0])))).toBeNull()
  })

  it("reads an icon's largest entry, from the PNG inside it when it holds one", async () => {
    const le16 = (value: number) => [value & 0xff, value >> 8]
    const le32 = (value: number) => [value & 0xff, (value >>> 8) & 0xff, (value >>> 16) & 0xff, (value >>> 24) & 0xff]
    // Two entries: a 16×16 bitmap and a PNG, whose header declares 512×512 whatever the entry's bytes say.
    const pngAt = 6 + 2 * 16
    const icon = Uint8Array.from([
      ...le16(0), ...le16(1), ...le16(2),
      16, 16, 0, 0, ...le16(1), ...le16(32), ...le32(40), ...le32(pngAt + PNG.length),
      0, 0, 0, 0, ...le16(1), ...le16(32), ...le32(PNG.length), ...le32(pngAt),
      ...PNG
    ])
    expect(rasterTypeOf(icon)).toBe("image/x-icon")
    expect(await imageDimensions("image/x-icon", reader(icon))).toEqual({ width: 512, height: 512 })
    // An entry of 0 × 0 means 256 × 256.
    const plain = Uint8Array.from([...le16(0), ...le16(1), ...le16(1), 0, 0, 0, 0, ...le16(1), ...le16(32), ...le32(40), ...le32(22), ...Array<number>(40).fill(0)])
    expect(await imageDimensions("image/x-icon", reader(plain))).toEqual({ width: 256, height: 256 })
  })

  it("knows the raster formats by their first bytes only, and nothing else", () => {
    expect(rasterTypeOf(PNG.subarray(0, RASTER_SIGNATURE_BYTES))).toBe("image/png")
    expect(rasterTypeOf(GIF)).toBe("image/gif")
    expect(rasterTypeOf(jpeg(frame(0xc0, 4, 4)))).toBe("image/jpeg")
    expect(rasterTypeOf(new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" width="99999" height="99999"/>'))).toBeNull()
    expect(rasterTypeOf(new TextEncoder().encode("<!doctype html><title>Not an image</title>"))).toBeNull()
    expect(rasterTypeOf(new Uint8Array())).toBeNull()
  })
})
