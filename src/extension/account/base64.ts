/**
 * Bytes as base64 text and back, for values kept where only JSON goes (chrome.storage). Uint8Array.toBase64 would do
 * it, but Chrome 120, the oldest Chrome supported, lacks it.
 */
export function bytesToBase64(bytes: Uint8Array): string {
  let binary = ""
  // In slices: String.fromCharCode takes its bytes as arguments, and the arguments of one call are limited.
  for (let start = 0; start < bytes.length; start += 0x8000) binary += String.fromCharCode(...bytes.subarray(start, start + 0x8000))
  return btoa(binary)
}

/** Throws on text that is not base64. */
export function base64ToBytes(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text)
  const bytes = new Uint8Array(binary.length)
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index)
  return bytes
}
