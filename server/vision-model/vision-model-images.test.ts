// The image of a question: uploaded (size, type by its bytes) or named by URL (allowed targets, failed downloads).
import { beforeEach, describe, expect, it } from "vitest"

import { MAX_IMAGE_BYTES } from "~core/analysis/vqa"

import { PNG_1PX, PNG_DATA_URL, signedInUser } from "../test-kit"
import { ANSWER, ask, imageHost, impatient, loopback, provider, question, setUpVisionModelApps, subject, usage } from "./vision-model-test-kit"
import { FAILED_IMAGE_FETCH_WINDOW_MS, MAX_FAILED_IMAGE_FETCHES } from "../image-input/image-download"

let now = Date.UTC(2026, 10, 22, 9, 0, 0)
const clock = () => now

setUpVisionModelApps(clock)

describe("image input", () => {
  const base64 = (bytes: Buffer) => bytes.toString("base64")

  it("answers 413 IMAGE_TOO_LARGE for an image over 8 MiB, also when the body itself is too large", async () => {
    const user = await signedInUser(subject.app)
    const oversized = Buffer.alloc(MAX_IMAGE_BYTES + 1)
    PNG_1PX.copy(oversized)
    const justOver = await ask(user.token, question({ image: { dataUrl: `data:image/png;base64,${base64(oversized)}` } }))
    expect(justOver.status).toBe(413)
    expect(justOver.body.error).toEqual({ code: "IMAGE_TOO_LARGE", message: "The image is larger than 8 MB." })

    const huge = Buffer.alloc(MAX_IMAGE_BYTES + 1024 * 1024)
    const farOver = await ask(user.token, question({ image: { dataUrl: `data:image/png;base64,${base64(huge)}` } }))
    expect(farOver.status).toBe(413)
    expect(farOver.body.error.code).toBe("IMAGE_TOO_LARGE")

    const atLimit = Buffer.alloc(MAX_IMAGE_BYTES)
    PNG_1PX.copy(atLimit)
    expect((await ask(user.token, question({ image: { dataUrl: `data:image/png;base64,${base64(atLimit)}` } }))).status).toBe(200)
    expect((await usage(user.token)).body.data.used).toBe(1)
  })

  it("answers 400 INVALID_IMAGE for a text file declared as PNG, an SVG, and data that is not base64", async () => {
    const user = await signedInUser(subject.app)
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'
    const cases = [
      `data:image/png;base64,${base64(Buffer.from("just some text, not a picture\n"))}`,
      `data:image/svg+xml;base64,${base64(Buffer.from(svg))}`,
      `data:image/svg+xml,${encodeURIComponent(svg)}`,
      "data:image/png;base64,!!!not base64!!!",
      "data:image/png;base64,",
      `data:text/plain;base64,${base64(Buffer.from("GIF? no"))}`
    ]
    for (const dataUrl of cases) {
      const { status, body } = await ask(user.token, question({ image: { dataUrl } }))
      expect(status, dataUrl.slice(0, 40)).toBe(400)
      expect(body.error.code).toBe("INVALID_IMAGE")
    }
    const notData = await ask(user.token, question({ image: { dataUrl: "https://example.com/a.png" } }))
    expect(notData.status).toBe(400)
    expect((await usage(user.token)).body.data.used).toBe(0)
  })

  it("accepts JPEG, GIF and WebP recognised by their bytes", async () => {
    const user = await signedInUser(subject.app)
    const images: Array<[Buffer, string]> = [
      [Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46]), "image/jpeg"],
      [Buffer.from("GIF89a\x01\x00\x01\x00", "latin1"), "image/gif"],
      [Buffer.concat([Buffer.from("RIFF"), Buffer.from([0x1a, 0, 0, 0]), Buffer.from("WEBPVP8 ")]), "image/webp"]
    ]
    for (const [bytes, type] of images) {
      expect((await ask(user.token, question({ image: { dataUrl: `data:application/octet-stream;base64,${base64(bytes)}` } }))).status).toBe(200)
      const sent = JSON.parse(provider.requests.at(-1)!.body).messages[0].content[1].image_url.url as string
      expect(sent).toBe(`data:${type};base64,${base64(bytes)}`)
    }
  })
})

describe("image URLs", () => {
  it("refuses private, loopback, link-local and other non-public targets without contacting them", async () => {
    const user = await signedInUser(subject.app)
    const before = provider.requests.length
    const urls = [
      `http://127.0.0.1:${imageHost.port}/a.png`,
      `https://127.0.0.1:${imageHost.port}/a.png`,
      "http://10.0.0.1/a.png",
      "https://10.0.0.1/a.png",
      "https://172.16.5.4/a.png",
      "https://192.168.1.1/a.png",
      "https://169.254.169.254/latest",
      "https://100.64.0.1/",
      "https://[::1]/",
      "https://[::ffff:127.0.0.1]/",
      "https://[::ffff:169.254.169.254]/",
      "https://[fe80::1]/",
      "https://[fd00::1]/",
      "https://[ff02::1]/",
      "https://localhost/",
      `https://localhost:${imageHost.port}/a.png`,
      "https://images.localhost/a.png",
      "https://0.0.0.0/",
      "https://2130706433/",
      "https://0x7f.1/",
      "https://224.0.0.1/",
      "http://example.com/a.png",
      "ftp://example.com/a.png",
      "file:///etc/passwd",
      "https://user:secret@example.com/a.png",
      "not a url"
    ]
    for (const [index, url] of urls.entries()) {
      // A fresh caller every few URLs: failed URLs count toward a per-user limit, tested below.
      const caller = index % 10 === 0 ? await signedInUser(subject.app) : null
      if (caller) Object.assign(user, caller)
      const { status, body } = await ask(user.token, question({ image: { url } }))
      expect(status, url).toBe(400)
      expect(body.error.code, url).toBe("URL_NOT_ALLOWED")
    }
    expect(imageHost.requests).toHaveLength(0)
    expect(provider.requests.length).toBe(before)
    expect((await usage(user.token)).body.data.used).toBe(0)
  })

  it(`stops a user after ${MAX_FAILED_IMAGE_FETCHES} failed image URLs in ${FAILED_IMAGE_FETCH_WINDOW_MS / 60_000} minutes, even sent all at once`, async () => {
    imageHost.handle((request, response) => {
      response.writeHead(request.url === "/a.png" ? 200 : 404, { "content-type": "image/png" })
      response.end(request.url === "/a.png" ? PNG_1PX : undefined)
    })
    const prober = await signedInUser(loopback.app, "pro")
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, index) => ask(prober.token, question({ image: { url: `${imageHost.url}/missing-${index}.png` } }), loopback))
    )
    const codes = answers.map((answer) => answer.body.error.code)
    expect(codes.filter((code) => code === "IMAGE_FETCH_FAILED")).toHaveLength(MAX_FAILED_IMAGE_FETCHES)
    const limited = answers.filter((answer) => answer.body.error.code === "RATE_LIMIT_EXCEEDED")
    expect(limited).toHaveLength(30 - MAX_FAILED_IMAGE_FETCHES)
    expect(limited[0]!.status).toBe(429)
    expect(limited[0]!.body.error.retryAfter).toBeGreaterThan(0)
    expect(limited[0]!.body.error.message).toMatch(/^Too many image URLs could not be downloaded \(or are still downloading\)\. Please wait \d+ minutes?/)
    expect(imageHost.requests.filter((request) => request.url!.startsWith("/missing-"))).toHaveLength(MAX_FAILED_IMAGE_FETCHES)
    // Until the window has passed even a good URL is refused; an uploaded image still works.
    expect((await ask(prober.token, question({ image: { url: `${imageHost.url}/a.png` } }), loopback)).status).toBe(429)
    expect((await ask(prober.token, question(), loopback)).status).toBe(200)

    // A successful download gives its place back: more of them than the limit, 15 at a time, all go through.
    const other = await signedInUser(loopback.app, "pro")
    for (let round = 0; round < 2; round++) {
      const good = await Promise.all(Array.from({ length: 15 }, () => ask(other.token, question({ image: { url: `${imageHost.url}/a.png` } }), loopback)))
      expect(good.map((answer) => answer.status)).toEqual(Array(15).fill(200))
    }

    now += FAILED_IMAGE_FETCH_WINDOW_MS
    expect((await ask(prober.token, question({ image: { url: `${imageHost.url}/a.png` } }), loopback)).status).toBe(200)
  })

  describe("downloading (loopback allowed by the test-only option)", () => {
    const big = Buffer.alloc(MAX_IMAGE_BYTES + 1)
    PNG_1PX.copy(big)

    beforeEach(() => {
      imageHost.handle((request, response) => {
        switch (request.url) {
          case "/a.png":
            response.writeHead(200, { "content-type": "image/png" })
            response.end(PNG_1PX)
            return
          case "/declared-large.png":
            response.writeHead(200, { "content-type": "image/png", "content-length": String(big.length) })
            response.end(big)
            return
          case "/streamed-large.png":
            response.writeHead(200, { "content-type": "image/png" })
            for (let offset = 0; offset < big.length; offset += 1024 * 1024) response.write(big.subarray(offset, offset + 1024 * 1024))
            response.end()
            return
          case "/page.html":
            response.writeHead(200, { "content-type": "image/png" })
            response.end("<!doctype html><title>not an image</title>")
            return
          case "/redirect":
            response.writeHead(302, { location: "/a.png" })
            response.end()
            return
          case "/redirect-private":
            response.writeHead(302, { location: "http://10.0.0.1/a.png" })
            response.end()
            return
          case "/loop":
            response.writeHead(301, { location: "/loop" })
            response.end()
            return
          case "/slow":
            return
          default:
            response.writeHead(404)
            response.end()
        }
      })
    })

    it("downloads the image and sends it as a data URL of its detected type", async () => {
      const user = await signedInUser(loopback.app)
      const { status, body } = await ask(user.token, question({ image: { url: `${imageHost.url}/a.png` } }), loopback)
      expect(status).toBe(200)
      expect(body.data.answer).toBe(ANSWER)
      expect(JSON.parse(provider.requests.at(-1)!.body).messages[0].content[1].image_url.url).toBe(PNG_DATA_URL)
      expect(imageHost.requests.at(-1)!.headers.authorization).toBeUndefined()
    })

    it("follows a redirect and checks where it leads", async () => {
      const user = await signedInUser(loopback.app)
      expect((await ask(user.token, question({ image: { url: `${imageHost.url}/redirect` } }), loopback)).status).toBe(200)
      const toPrivate = await ask(user.token, question({ image: { url: `${imageHost.url}/redirect-private` } }), loopback)
      expect(toPrivate.status).toBe(400)
      expect(toPrivate.body.error.code).toBe("URL_NOT_ALLOWED")
      const loop = await ask(user.token, question({ image: { url: `${imageHost.url}/loop` } }), loopback)
      expect(loop.body.error).toEqual({ code: "IMAGE_FETCH_FAILED", message: "The image URL redirects too many times." })
      expect(imageHost.requests.filter((request) => request.url === "/loop")).toHaveLength(4)
      expect((await usage(user.token, loopback)).body.data.used).toBe(1)
    })

    it("refuses a too large body, declared or streamed, and a body that is not an image", async () => {
      const user = await signedInUser(loopback.app)
      for (const path of ["/declared-large.png", "/streamed-large.png"]) {
        const { status, body } = await ask(user.token, question({ image: { url: `${imageHost.url}${path}` } }), loopback)
        expect(status, `${path} ${JSON.stringify(body)}`).toBe(413)
        expect(body.error.code).toBe("IMAGE_TOO_LARGE")
      }
      const html = await ask(user.token, question({ image: { url: `${imageHost.url}/page.html` } }), loopback)
      expect(html.status).toBe(400)
      expect(html.body.error.code).toBe("INVALID_IMAGE")
      expect((await usage(user.token, loopback)).body.data.used).toBe(0)
    })

    it("gives up on a server that does not answer in time or answers an error", async () => {
      const waiting = await signedInUser(impatient.app)
      const slow = await ask(waiting.token, question({ image: { url: `${imageHost.url}/slow` } }), impatient)
      expect((await usage(waiting.token, impatient)).body.data.used).toBe(0)
      const user = await signedInUser(loopback.app)
      expect(slow.status).toBe(400)
      expect(slow.body.error).toEqual({ code: "IMAGE_FETCH_FAILED", message: "The image's server did not answer in time." })
      const missing = await ask(user.token, question({ image: { url: `${imageHost.url}/missing.png` } }), loopback)
      expect(missing.body.error).toEqual({ code: "IMAGE_FETCH_FAILED", message: "The image could not be downloaded: its server answered HTTP 404." })
      expect((await usage(user.token, loopback)).body.data.used).toBe(0)
    })

    it("still refuses private addresses other than loopback", async () => {
      const user = await signedInUser(loopback.app)
      const { status, body } = await ask(user.token, question({ image: { url: "http://192.168.0.10/a.png" } }), loopback)
      expect(status).toBe(400)
      expect(body.error.code).toBe("URL_NOT_ALLOWED")
    })
  })
})
