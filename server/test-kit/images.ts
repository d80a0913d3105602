/** Images the API tests send. */

/** A 1×1 PNG. */
export const PNG_1PX = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64"
)
export const PNG_DATA_URL = `data:image/png;base64,${PNG_1PX.toString("base64")}`
