/**
 * A developer's configuration file: `npm start` (scripts/start.mjs) reads `.env` from its working directory, a
 * variable of the environment winning over the file's; and `.env.example` names every variable of the configuration table (docs/configuration.md)
 * configuration table, so copying it is the way to see them all.
 */
import { spawn } from "node:child_process"
import fs from "node:fs/promises"
import path from "node:path"

import { afterAll, describe, expect, it } from "vitest"

import { freePort } from "../tests/free-port"
import { makeTempDir, PROJECT_ROOT } from "./test-kit"

const folders: string[] = []
afterAll(async () => Promise.all(folders.map((folder) => fs.rm(folder, { recursive: true, force: true }))))

/** The variables the configuration table (docs/configuration.md) names, in the order it names them. */
async function readmeVariables(): Promise<string[]> {
  const readme = await fs.readFile(path.join(PROJECT_ROOT, "docs/configuration.md"), "utf8")
  const table = readme.slice(readme.indexOf("## Configuration"), readme.indexOf("### ", readme.indexOf("## Configuration")))
  return table
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .flatMap((line) => [...line.split("|")[1]!.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((match) => match[1]!))
}

describe("the configuration file", () => {
  it("names in .env.example every variable of the configuration table (docs/configuration.md) table, each with a comment", async () => {
    const example = await fs.readFile(path.join(PROJECT_ROOT, ".env.example"), "utf8")
    const variables = await readmeVariables()
    expect(variables.length).toBeGreaterThan(30)
    const lines = example.split("\n")
    for (const variable of variables) {
      const at = lines.findIndex((line) => new RegExp(`^#?\\s*${variable}=`).test(line))
      expect(at, `${variable} in .env.example`).toBeGreaterThan(0)
      expect(lines[at - 1], `a comment above ${variable}`).toMatch(/^#/)
    }
  })

  it("is read by npm start from its working directory, the environment winning", async () => {
    const folder = await makeTempDir("iqa-env-file-")
    folders.push(folder)
    const [filePort, environmentPort] = [await freePort(), await freePort()]
    const dataDir = path.join(folder, "data-from-the-file")
    await fs.writeFile(path.join(folder, ".env"), `# as a developer writes it\nPORT=${filePort}\nDATA_DIR=${dataDir}\nLOG_LEVEL=error\n`)
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(PORT|DATA_DIR|DATABASE_URL|LOG_LEVEL)$/.test(name)))
    const child = spawn(process.execPath, [path.join(PROJECT_ROOT, "scripts/start.mjs")], {
      cwd: folder,
      env: { ...inherited, NODE_ENV: "test", PORT: String(environmentPort), WEB_ROOT: path.join(PROJECT_ROOT, "dist/web") },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let output = ""
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()))
    try {
      for (let waited = 0; ; waited += 100) {
        if (child.exitCode !== null) throw new Error(`the server exited:\n${output}`)
        if (waited > 60_000) throw new Error(`the server did not start:\n${output}`)
        if (await fetch(`http://127.0.0.1:${environmentPort}/api/status`).then((response) => response.ok, () => false)) break
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      // The file's DATA_DIR was used; its PORT was not, the environment's was.
      expect((await fs.stat(dataDir)).isDirectory()).toBe(true)
      expect(await fetch(`http://127.0.0.1:${filePort}/api/status`).then(() => "answered", () => "refused")).toBe("refused")
    } finally {
      child.kill("SIGTERM")
      await new Promise((resolve) => child.once("exit", resolve))
    }
  }, 90_000)
})
