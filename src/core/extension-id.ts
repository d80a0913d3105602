/**
 * The extension's id, fixed by the public key in package.json's manifest "key" (so an unpacked build, a
 * packed one and every developer's copy share it): the first 32 hex digits of sha256(SubjectPublicKeyInfo DER),
 * each digit 0-f written as a-p. extension-id.test.ts recomputes it from the key.
 *
 * The site needs it to reach the extension from a web page (chrome.runtime.sendMessage(EXTENSION_ID, message)).
 */
export const EXTENSION_ID = "ffaglifbbggnijgmaboakodgdepojdjj"

/** Chrome's id alphabet: hex digit d becomes the letter "a" + d. */
export function extensionIdFromSha256Hex(hex: string): string {
  return hex
    .slice(0, 32)
    .toLowerCase()
    .replace(/[0-9a-f]/g, (digit) => String.fromCharCode(97 + parseInt(digit, 16)))
}
