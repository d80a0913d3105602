/**
 * How a /api/v1 analysis receives its image: a multipart upload (a file field `image`, the options as text fields
 * next to it) or JSON `{image: {dataUrl} | {url}, ...options}`. Either way the options are parsed by the endpoint's
 * one zod schema (local-vision-schemas.ts): the JSON body with the very schema the route declares for the reference, the
 * form's text fields with the same schema less its image (the file is read from the stream, as the feedback form's
 * are). A URL is downloaded through the SSRF guard. The image's type and size are
 * checked by the local vision service (server/local-vision), whatever way it came.
 */
import type { MultipartFile, MultipartValue } from "@fastify/multipart"
import type { FastifyRequest } from "fastify"
import type * as z from "zod"

import { V1_MAX_IMAGE_BYTES, V1_MULTIPART_FIELDS } from "./local-vision-schemas"
import type { vqaImageSchema } from "~core/analysis/vqa"

import { imageBytesFromDataUrl, imageTooLarge } from "../image-input/image-checks"
import { ApiError, parseInput, validationFailed } from "../http/errors"
import { parseRequest } from "../openapi/route-docs"

/** @fastify/multipart's limits for a /api/v1 upload: one image and the few option fields. */
export const V1_MULTIPART_OPTIONS = {
  throwFileSizeLimit: true,
  limits: { fileSize: V1_MAX_IMAGE_BYTES, files: 1, fields: 8, fieldSize: 1024, parts: 9, headerPairs: 50 }
}

type ImageCallSchema = z.ZodObject<{ image: typeof vqaImageSchema }>

const NO_IMAGE = 'image: send the image as a multipart file field named "image", or as JSON {"image": {"dataUrl": …} or {"url": …}}'

/** A multipart text field as the schema's option: languages as a list ("deu,eng" or repeated), attributes as a boolean. */
function optionValue(name: string, values: string[]): unknown {
  if (name === "languages") return values.flatMap((value) => value.split(/[\s,+]+/)).filter(Boolean)
  const [value] = values
  if (name === "attributes") return value === "true" ? true : value === "false" ? false : value
  return value
}

async function readUpload(request: FastifyRequest): Promise<{ image: Buffer | null; fields: Record<string, unknown> }> {
  let image: Buffer | null = null
  const values = new Map<string, string[]>()
  try {
    for await (const part of request.parts()) {
      if (part.type === "field") {
        const { fieldname, value } = part as MultipartValue<unknown>
        values.set(fieldname, [...(values.get(fieldname) ?? []), String(value)])
        continue
      }
      const file = part as MultipartFile
      if (file.fieldname !== "image") {
        await file.toBuffer().catch(() => undefined)
        throw validationFailed([`${file.fieldname}: unexpected file; send the image as "image"`])
      }
      image = await file.toBuffer()
    }
  } catch (error) {
    const code = (error as { code?: string }).code
    if (code === "FST_REQ_FILE_TOO_LARGE") throw imageTooLarge(V1_MAX_IMAGE_BYTES)
    if (code === "FST_FILES_LIMIT") throw validationFailed(["image: send one image per call"])
    if (code === "FST_FIELDS_LIMIT" || code === "FST_PARTS_LIMIT" || code === "FST_PROTO_VIOLATION") throw validationFailed(["the form has too many fields"])
    if (error instanceof ApiError) throw error
    // Everything here is read into memory: whatever else the parser throws ("Unexpected end of multipart data",
    // a bad boundary) is a body that is not a well-formed form.
    throw validationFailed(["the form data could not be read: send multipart/form-data with the image as a file field named \"image\""])
  }
  // Unknown fields are kept, so the strict schema names them.
  const fields = Object.fromEntries([...values].map(([name, list]) => [name, (V1_MULTIPART_FIELDS as readonly string[]).includes(name) ? optionValue(name, list) : list[0]]))
  return { image, fields }
}

/** The image's bytes and the call's options, from either form of the call. */
export async function readImageCall<Schema extends ImageCallSchema>(
  request: FastifyRequest,
  schema: Schema,
  download: (url: string) => Promise<Buffer>
): Promise<{ image: Buffer; options: Omit<z.infer<Schema>, "image"> }> {
  if (request.isMultipart()) {
    const { image, fields } = await readUpload(request)
    const options = parseInput(schema.omit({ image: true }), fields) as unknown as Omit<z.infer<Schema>, "image">
    if (!image) throw validationFailed([NO_IMAGE])
    return { image, options }
  }
  if (request.body === undefined || request.body === null) throw validationFailed([NO_IMAGE])
  const { image, ...options } = parseRequest(request, "body", schema) as z.infer<Schema>
  const bytes = "dataUrl" in image ? imageBytesFromDataUrl(image.dataUrl, V1_MAX_IMAGE_BYTES) : await download(image.url)
  return { image: bytes, options: options as Omit<z.infer<Schema>, "image"> }
}
