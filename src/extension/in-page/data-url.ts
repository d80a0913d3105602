/** A Blob as a data: URL (FileReader does the base64 natively), for messages and JSON bodies. */
export function blobToDataUrl(blob: Blob): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => resolve(String(reader.result))
    reader.onerror = () => reject(reader.error ?? new Error("The image could not be read."))
    reader.readAsDataURL(blob)
  })
}
