/** Solid-colour PNGs of any size for fixtures, written with node:zlib (no image library needed). */
import zlib from "node:zlib"

/** One PNG chunk: its length, type, data and CRC. */
export function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, "ascii"), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(zlib.crc32(body) >>> 0)
  return Buffer.concat([length, body, crc])
}

/** An RGB PNG of width × height pixels in one colour, with a darker diagonal band so it is not blank. */
export function solidPng(width: number, height: number, [red, green, blue]: readonly [number, number, number]): Buffer {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header[8] = 8 // bit depth
  header[9] = 2 // colour type: RGB
  const row = 1 + width * 3
  const raw = Buffer.alloc(row * height)
  for (let y = 0; y < height; y++) {
    raw[y * row] = 0 // filter: none
    for (let x = 0; x < width; x++) {
      const band = Math.abs(x - (y * width) / height) < width / 20 ? 0.6 : 1
      const offset = y * row + 1 + x * 3
      raw[offset] = Math.round(red * band)
      raw[offset + 1] = Math.round(green * band)
      raw[offset + 2] = Math.round(blue * band)
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", header),
    pngChunk("IDAT", zlib.deflateSync(raw)),
    pngChunk("IEND", Buffer.alloc(0))
  ])
}
