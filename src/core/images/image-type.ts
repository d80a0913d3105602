/**
 * An image's type as its leading bytes show it: the one sniffer behind every upload check (the analyze route, the
 * feedback form on both sides), because a declared type or a file name is never trusted.
 */

export type SniffedImageType = "image/png" | "image/jpeg" | "image/gif" | "image/webp"

const ascii = (text: string): number[] => [...text].map((char) => char.charCodeAt(0))

/** The PNG, JPEG, GIF or WebP type the bytes start with, or null. */
export function imageTypeOf(bytes: Uint8Array): SniffedImageType | null {
  const starts = (signature: readonly number[], offset = 0) =>
    bytes.length >= offset + signature.length && signature.every((byte, index) => bytes[offset + index] === byte)
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png"
  if (starts([0xff, 0xd8, 0xff])) return "image/jpeg"
  if (starts(ascii("GIF87a")) || starts(ascii("GIF89a"))) return "image/gif"
  // A RIFF container holds audio too: only its WEBP form is an image.
  if (starts(ascii("RIFF")) && starts(ascii("WEBP"), 8)) return "image/webp"
  return null
}
