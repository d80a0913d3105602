/** The blog: admins' /api/admin/posts and the public /api/blog (blog-service.ts); each route parses, authorises and calls. */
import multipart from "@fastify/multipart"
import type { FastifyInstance } from "fastify"
import * as z from "zod"

import { confirmationSchema, ok } from "~core/api-answer"
import {
  adminPostsQuerySchema,
  postIdParamsSchema,
  postInputSchema,
  postListSchema,
  postSchema,
  postSlugParamsSchema,
  publicPostSchema,
  publicPostsQuerySchema
} from "~core/admin/blog"

import { requireAdmin } from "../auth/require-admin"
import { ApiError, notFound, validationFailed } from "../http/errors"
import { docsTagged, parseRequest } from "../openapi/route-docs"
import { blogService } from "./blog-service"
import { MAX_POST_IMAGE_BYTES, POST_IMAGE_NAME, postImageStorage, postImageTooLarge, storePostImage } from "./post-image"

const blogDoc = docsTagged("Blog")
const NO_POST = { 404: "NOT_FOUND: no post has this id." }
const SLUG_TAKEN = { 409: "SLUG_TAKEN: another post uses this slug." }
const POST = { 200: postSchema }

const adminListDoc = blogDoc({
  summary: "Every post, drafts too",
  description: "The latest edited first, 50 a page; `query` searches the title, excerpt, text and tags.",
  querystring: adminPostsQuerySchema,
  data: { 200: postListSchema }
})
const createDoc = blogDoc({
  summary: "Write a post",
  description: "The Markdown is rendered to `html` by the server, raw HTML shown as text. Published now if `status` is published.",
  body: postInputSchema,
  data: { 201: postSchema },
  errors: SLUG_TAKEN
})
const readDoc = blogDoc({ summary: "A post, draft or published", params: postIdParamsSchema, data: POST, errors: NO_POST })
const updateDoc = blogDoc({
  summary: "Save a post",
  description: "The whole post as the editor holds it. `updatedAt` becomes the time of this edit; `publishedAt` is set when first published and kept after.",
  params: postIdParamsSchema,
  body: postInputSchema,
  data: POST,
  errors: { ...NO_POST, ...SLUG_TAKEN }
})
const deleteDoc = blogDoc({ summary: "Delete a post", description: "Its featured image goes with it.", params: postIdParamsSchema, data: { 200: confirmationSchema("deleted") }, errors: NO_POST })
const imageDoc = blogDoc({
  summary: "Set a post's featured image",
  description: `multipart/form-data with the file field "image": PNG, JPEG or WebP, at most ${MAX_POST_IMAGE_BYTES / 1024 / 1024} MB, served again as WebP within 1600 pixels.`,
  consumes: ["multipart/form-data"],
  params: postIdParamsSchema,
  data: POST,
  errors: { ...NO_POST, 413: "PAYLOAD_TOO_LARGE: the image is over 5 MB.", 415: "INVALID_IMAGE: not a PNG, JPEG or WebP picture." }
})
const imageParamsSchema = z.strictObject({ name: z.string().max(100) })
const imageFileDoc = blogDoc({
  summary: "A post's featured image",
  description: "Each upload has a new address, kept by caches for a year.",
  params: imageParamsSchema,
  answers: { 200: { description: "The image, as WebP.", content: { "image/webp": { schema: z.file().mime("image/webp") } } } },
  errors: { 404: "NOT_FOUND: no such image." }
})
const publicListDoc = blogDoc({
  summary: "Published posts",
  description: "The newest first, 6 a page; `query` searches the title, excerpt, text and tags, `category` is a category's slug.",
  querystring: publicPostsQuerySchema,
  data: { 200: postListSchema }
})
const publicReadDoc = blogDoc({
  summary: "A published post, by its slug",
  description: "With up to three related posts (its category, or sharing its tags). A draft is not found.",
  params: postSlugParamsSchema,
  data: { 200: publicPostSchema },
  errors: { 404: "NOT_FOUND: no published post has this slug." }
})

export async function blogRoutes(app: FastifyInstance): Promise<void> {
  const blog = blogService(app)
  const images = postImageStorage(app.config)
  await app.register(multipart, { throwFileSizeLimit: true, limits: { fileSize: MAX_POST_IMAGE_BYTES, files: 1, fields: 0, parts: 1 } })
  const changeBy = (request: { auth?: { user: { id: string } } | null; ip: string }) => ({ adminId: request.auth!.user.id, ip: request.ip })
  const removeImage = (key: string | null, log: FastifyInstance["log"]) =>
    key ? images.remove(key).catch((error: unknown) => log.warn({ err: error }, "a blog post's image could not be removed")) : undefined

  app.get("/api/admin/posts", { onRequest: requireAdmin, schema: adminListDoc }, async (request) => ok(await blog.adminList(parseRequest(request, "querystring", adminPostsQuerySchema))))

  app.post("/api/admin/posts", { onRequest: requireAdmin, schema: createDoc }, async (request, reply) => {
    const input = parseRequest(request, "body", postInputSchema)
    return reply.status(201).send(ok(await blog.create(changeBy(request), input)))
  })

  app.get("/api/admin/posts/:id", { onRequest: requireAdmin, schema: readDoc }, async (request) => ok(await blog.adminRead(parseRequest(request, "params", postIdParamsSchema).id)))

  app.put("/api/admin/posts/:id", { onRequest: requireAdmin, schema: updateDoc }, async (request) => {
    const { id } = parseRequest(request, "params", postIdParamsSchema)
    return ok(await blog.update(changeBy(request), id, parseRequest(request, "body", postInputSchema)))
  })

  app.delete("/api/admin/posts/:id", { onRequest: requireAdmin, schema: deleteDoc }, async (request) => {
    const { imageKey } = await blog.delete(changeBy(request), parseRequest(request, "params", postIdParamsSchema).id)
    await removeImage(imageKey, request.log)
    return ok({ deleted: true as const })
  })

  app.put("/api/admin/posts/:id/image", { onRequest: requireAdmin, schema: imageDoc }, async (request) => {
    const { id } = parseRequest(request, "params", postIdParamsSchema)
    if (!request.isMultipart()) throw new ApiError(415, "UNSUPPORTED_MEDIA_TYPE", 'Send the image as multipart/form-data, in the file field "image".')
    await blog.requireExists(id)
    let bytes: Buffer | null = null
    try {
      const file = await request.file()
      if (file?.fieldname === "image") bytes = await file.toBuffer()
    } catch (error) {
      if ((error as { code?: string }).code === "FST_REQ_FILE_TOO_LARGE") throw postImageTooLarge()
      throw validationFailed(['image: the form could not be read; send the file in the field "image"'])
    }
    if (!bytes) throw validationFailed(['image: send the picture in the file field "image"'])
    const key = await storePostImage(images, id, bytes)
    try {
      const { post, previous } = await blog.setImage(changeBy(request), id, key)
      await removeImage(previous, request.log)
      return ok(post)
    } catch (error) {
      // The post went away while the image was stored: the object would belong to nothing.
      await removeImage(key, request.log)
      throw error
    }
  })

  app.get("/api/blog/images/:name", { schema: imageFileDoc }, async (request, reply) => {
    const { name } = parseRequest(request, "params", imageParamsSchema)
    if (!POST_IMAGE_NAME.test(name)) throw notFound("No such image.")
    const stream = await images.read(name)
    if (!stream) throw notFound("No such image.")
    return reply.headers({ "content-type": "image/webp", "cache-control": "public, max-age=31536000, immutable", "cross-origin-resource-policy": "cross-origin" }).send(stream)
  })

  app.get("/api/blog/posts", { schema: publicListDoc }, async (request) => ok(await blog.publicList(parseRequest(request, "querystring", publicPostsQuerySchema))))

  app.get("/api/blog/posts/:slug", { schema: publicReadDoc }, async (request) => ok(await blog.publicRead(parseRequest(request, "params", postSlugParamsSchema).slug)))
}
