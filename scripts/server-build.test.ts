// @vitest-environment node
import { execFileSync, spawn } from "node:child_process"
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"

import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { buildServer, serverBuildIsCurrent } from "./server-build.mjs"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")

describe("the server's bundle", () => {
  // Three folders below the project, where dist/server is two: an `import.meta.url` left naming the bundle would look
  // for assets/icon.png (from server/openapi/) in dist/ instead of finding it by chance.
  let folder: string
  let outDir: string
  let bundle: string
  beforeAll(async () => {
    fs.mkdirSync(path.join(root, "dist"), { recursive: true })
    folder = fs.mkdtempSync(path.join(root, "dist/server-build-test-"))
    outDir = path.join(folder, "server")
    // Two at once, as two servers starting on a stale bundle build it.
    const [first, second] = await Promise.all([buildServer({ outDir }), buildServer({ outDir })])
    expect(second.bundle).toBe(first.bundle)
    bundle = first.bundle
  }, 60_000)
  afterAll(() => fs.rmSync(folder, { recursive: true, force: true }))

  it("is written with its source map and its inputs, and no temporary file", () => {
    expect(fs.readdirSync(outDir).sort()).toEqual(["main.inputs.json", "main.mjs", "main.mjs.map"])
    const inputs = JSON.parse(fs.readFileSync(path.join(outDir, "main.inputs.json"), "utf8")) as string[]
    expect(inputs).toEqual(expect.arrayContaining(["server/main.ts", "src/core/billing/plans.ts", "package.json", "package-lock.json", "tsconfig.json", "scripts/server-build.mjs"]))
    expect(inputs.filter((file) => file.startsWith("node_modules/"))).toEqual([])
    expect(fs.readFileSync(bundle, "utf8")).toMatch(/\/\/# sourceMappingURL=main\.mjs\.map\n$/)
  })

  it("is current until an input is newer than it or missing", () => {
    expect(serverBuildIsCurrent(outDir)).toBe(true)
    const inputsFile = path.join(outDir, "main.inputs.json")
    const inputs = JSON.parse(fs.readFileSync(inputsFile, "utf8")) as string[]
    // The bundle dated a second after the newest input, then a second before it: as if that file had been saved after
    // the build.
    const newest = Math.max(...inputs.map((file) => fs.statSync(path.join(root, file)).mtimeMs)) / 1000
    fs.utimesSync(bundle, newest + 1, newest + 1)
    expect(serverBuildIsCurrent(outDir)).toBe(true)
    fs.utimesSync(bundle, newest - 1, newest - 1)
    expect(serverBuildIsCurrent(outDir)).toBe(false)
    fs.utimesSync(bundle, newest + 1, newest + 1)
    fs.writeFileSync(inputsFile, JSON.stringify([...inputs, "server/removed-since.ts"]))
    expect(serverBuildIsCurrent(outDir)).toBe(false)
    fs.writeFileSync(inputsFile, JSON.stringify(inputs))
    expect(serverBuildIsCurrent(outDir)).toBe(true)
    expect(serverBuildIsCurrent(path.join(folder, "never-built"))).toBe(false)
  })

  it("names its sources' own addresses wherever they used import.meta.url", () => {
    const text = fs.readFileSync(bundle, "utf8")
    const rewritten = [...text.matchAll(/new URL\("([^"]+)", import\.meta\.url\)/g)].map(([, address]) => fileURLToPath(new URL(address!, pathToFileURL(bundle))))
    expect(rewritten.length).toBe(text.split("import.meta.url").length - 1)
    for (const source of rewritten) expect(fs.existsSync(source), source).toBe(true)
    // The files beside them: the API reference's logo, and the vision pool's worker entry.
    expect(rewritten).toEqual(expect.arrayContaining([path.join(root, "server/openapi/openapi.ts"), path.join(root, "server/local-vision/vision-pool.ts")]))
  })

  it("runs from any folder with its packages resolved by Node's own loader", async () => {
    // A production start without TOKEN_SECRET stops at its configuration, after every import of the bundle linked: a
    // package specifier only tsx resolved (a folder, a file without its extension) fails before that. A full start
    // would first create and migrate an embedded database, about 7 s of CPU.
    const env = { PATH: process.env.PATH, NODE_ENV: "production", DATA_DIR: path.join(folder, "data") }
    const child = spawn(process.execPath, ["--enable-source-maps", bundle], { cwd: os.tmpdir(), env, stdio: ["ignore", "pipe", "pipe"] })
    let output = ""
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()))
    const code = await new Promise((resolve) => child.once("exit", resolve))
    expect(output).toMatch(/TOKEN_SECRET must be set in production/)
    expect(code).toBe(1)
  }, 30_000)

  it("imports on demand only packages Node's own loader resolves to a file", () => {
    // The SDKs a start loads only once their service is configured (import("stripe")…): resolved from the bundle's
    // folder by Node, each must name a file, not a folder or a name without its extension, which only tsx accepted.
    const text = fs.readFileSync(bundle, "utf8")
    const specifiers = [...new Set([...text.matchAll(/\bimport\("([^".][^"]*)"\)/g)].map(([, specifier]) => specifier!))]
    expect(specifiers).toContain("stripe")
    const resolve = `for (const specifier of ${JSON.stringify(specifiers)}) console.log(import.meta.resolve(specifier))`
    const resolved = execFileSync(process.execPath, ["--input-type=module", "-e", resolve], { cwd: outDir, encoding: "utf8" }).trim().split("\n")
    for (const url of resolved) expect(fs.statSync(fileURLToPath(url), { throwIfNoEntry: false })?.isFile(), url).toBe(true)
  })
})
