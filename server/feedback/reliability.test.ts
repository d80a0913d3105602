/**
 * The real server process: 50 concurrent submissions with images, then SIGKILL right after the
 * last acknowledgement; after a restart on the same DATA_DIR every acknowledged feedback is there,
 * with every image byte for byte.
 */
import fs from "node:fs/promises"
import path from "node:path"

import { expect, it } from "vitest"

import { makeTempDir, PROJECT_ROOT, spawnServer } from "../test-kit"

const PNG = await fs.readFile(path.join(PROJECT_ROOT, "tests/fixtures/square-64.png"))
const ADMIN = { email: "ops@example.com", password: "Quartz-Lantern-2026!" }
const SUBMISSIONS = 50

const startServer = (dataDir: string) =>
  spawnServer({ DATA_DIR: dataDir, TRUST_PROXY: "1", ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password })

/** A distinct PNG per submission (its index in the trailing bytes), so a mixed-up file would show. */
const imageFor = (index: number, part: number) => Buffer.concat([PNG, Buffer.from(`#${index}-${part}`)])

it(`keeps all ${SUBMISSIONS} acknowledged submissions through a SIGKILL`, async () => {
  const dataDir = await makeTempDir("iqa-reliability-")
  try {
    const first = await startServer(dataDir)
    const answers = await Promise.all(
      Array.from({ length: SUBMISSIONS }, async (_, index) => {
        const form = new FormData()
        form.append("email", `load${index}@example.com`)
        form.append("message", `Concurrent feedback number ${index}.`)
        form.append("images", new Blob([new Uint8Array(imageFor(index, 0))], { type: "image/png" }), `a${index}.png`)
        form.append("images", new Blob([new Uint8Array(imageFor(index, 1))], { type: "image/png" }), `b${index}.png`)
        const response = await fetch(`${first.url}/api/feedback`, {
          method: "POST",
          body: form,
          // Each submission from its own address: the per-IP limit is not what this test is about.
          headers: { "x-forwarded-for": `192.0.2.${index + 1}` }
        })
        return { status: response.status, body: (await response.json()) as { data: { id: string; email: string } } }
      })
    )
    first.child.kill("SIGKILL")
    await first.exited

    expect(answers.map((answer) => answer.status)).toEqual(Array(SUBMISSIONS).fill(201))
    const acknowledged = new Map(answers.map((answer) => [answer.body.data.id, answer.body.data.email]))

    const second = await startServer(dataDir)
    try {
      const login = await fetch(`${second.url}/api/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(ADMIN)
      })
      const token = ((await login.json()) as { data: { token: string } }).data.token
      const auth = { authorization: `Bearer ${token}` }
      const list = (await (await fetch(`${second.url}/api/feedback?pageSize=100`, { headers: auth })).json()) as {
        data: { id: string; email: string; message: string; images: string[] }[]
        meta: { total: number }
      }
      expect(list.meta.total).toBe(SUBMISSIONS)
      for (const item of list.data) {
        expect(acknowledged.get(item.id)).toBe(item.email)
        const index = Number(/load(\d+)@/.exec(item.email)![1])
        expect(item.images).toHaveLength(2)
        for (const [part, url] of item.images.entries()) {
          const image = await fetch(`${second.url}${url}`, { headers: auth })
          expect(image.status).toBe(200)
          expect(Buffer.from(await image.arrayBuffer()).equals(imageFor(index, part))).toBe(true)
        }
      }
      const stored = await fs.readdir(path.join(dataDir, "uploads", "feedback"))
      expect(stored).toHaveLength(SUBMISSIONS * 2)
    } finally {
      second.child.kill("SIGTERM")
      await second.exited
    }
  } finally {
    await fs.rm(dataDir, { recursive: true, force: true })
  }
}, 240_000)
