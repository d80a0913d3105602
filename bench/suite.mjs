// `npm run bench:suite`: the time a new clone of this commit takes to install (`npm ci --no-audit --no-fund`, as CI
// runs it) and to pass `npm test`, and where the test run's time goes: the checks and builds before vitest, then
// each phase (unit, API, browser files) from its first file's start to its last file's end, and the slowest files.
// Runs as CI does (CI=1: PostgreSQL must answer at TEST_DATABASE_URL), on a copy that shares nothing with this
// checkout but npm's download cache: vitest's cache of past durations, .plasmo and the builds start empty. About
// 12 minutes on 2 cores; not part of `npm run bench`. Figures to stdout and bench/results/suite.json.
import { spawn, spawnSync } from "node:child_process"
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { fileURLToPath } from "node:url"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const RESULTS_FILE = path.join(root, "bench/results/suite.json")
const PHASES = { unit: /^unit/, api: /^api/, e2e: /^e2e$/ }

/** Runs `command` in `cwd` with its output to `log`; answers its exit code and seconds. */
function timed(command, args, cwd, log, env = process.env) {
  const startedAt = Date.now()
  const output = fs.openSync(log, "w")
  const child = spawn(command, args, { cwd, env, stdio: ["ignore", output, output] })
  return new Promise((resolve) => {
    child.once("exit", (code) => {
      fs.closeSync(output)
      resolve({ code, seconds: (Date.now() - startedAt) / 1000 })
    })
  })
}

/** Phase spans and the slowest files from the reporter's lines; times in seconds from vitest's start. */
function phases(timelineFile) {
  const lines = fs.readFileSync(timelineFile, "utf8").trim().split("\n").map((line) => JSON.parse(line))
  const start = lines.find((line) => line.event === "run-start").t
  const spans = {}
  for (const [name, pattern] of Object.entries(PHASES)) {
    const mine = lines.filter((line) => line.project && pattern.test(line.project))
    if (mine.length === 0) continue
    const first = Math.min(...mine.filter((line) => line.event === "start").map((line) => line.t)) - start
    const last = Math.max(...mine.filter((line) => line.event === "end").map((line) => line.t)) - start
    const fileSeconds = mine.filter((line) => line.event === "end").reduce((sum, line) => sum + line.ms, 0) / 1000
    spans[name] = { from: first / 1000, to: last / 1000, seconds: (last - first) / 1000, fileSeconds }
  }
  const slowest = lines
    .filter((line) => line.event === "end")
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 12)
    .map((line) => ({ project: line.project, file: line.file, seconds: line.ms / 1000 }))
  const end = lines.findLast((line) => line.event === "run-end")?.t ?? lines.at(-1).t
  return { vitestSeconds: (end - start) / 1000, phases: spans, slowest }
}

const folder = fs.mkdtempSync(path.join(os.tmpdir(), "iqa-bench-suite-"))
const clone = path.join(folder, "clone")
try {
  const commit = spawnSync("git", ["rev-parse", "HEAD"], { cwd: root, encoding: "utf8" }).stdout.trim()
  console.error(`Cloning ${commit.slice(0, 7)} into ${clone}`)
  if (spawnSync("git", ["clone", "-q", root, clone]).status !== 0) throw new Error("git clone failed")
  console.error("npm ci --no-audit --no-fund …")
  const install = await timed("npm", ["ci", "--no-audit", "--no-fund"], clone, path.join(folder, "npm-ci.log"))
  if (install.code !== 0) throw new Error(`npm ci failed: see ${path.join(folder, "npm-ci.log")}`)
  console.error(`npm ci: ${install.seconds.toFixed(0)} s. npm test …`)
  const timeline = path.join(folder, "timeline.jsonl")
  const env = { ...process.env, CI: "1", SUITE_TIMELINE: timeline }
  const reporter = path.join(root, "bench/suite-timeline.mjs")
  const test = await timed("npm", ["test", "--", "--reporter=default", `--reporter=${reporter}`], clone, path.join(folder, "npm-test.log"), env)
  if (test.code !== 0) throw new Error(`npm test failed after ${test.seconds.toFixed(0)} s: see ${path.join(folder, "npm-test.log")}`)
  const run = phases(timeline)
  const results = {
    commit,
    cpus: os.cpus().length,
    npmCiSeconds: install.seconds,
    npmTestSeconds: test.seconds,
    beforeVitestSeconds: test.seconds - run.vitestSeconds,
    ...run
  }
  fs.mkdirSync(path.dirname(RESULTS_FILE), { recursive: true })
  fs.writeFileSync(RESULTS_FILE, `${JSON.stringify(results, null, 2)}\n`)
  console.log(`npm ci ${install.seconds.toFixed(0)} s; npm test ${test.seconds.toFixed(0)} s on ${results.cpus} CPUs`)
  console.log(`  typecheck, lint and builds: ${results.beforeVitestSeconds.toFixed(0)} s; vitest: ${run.vitestSeconds.toFixed(0)} s`)
  for (const [name, span] of Object.entries(run.phases)) {
    console.log(`  ${name.padEnd(4)} ${span.from.toFixed(0).padStart(4)} s → ${span.to.toFixed(0).padStart(4)} s: ${span.seconds.toFixed(0)} s (${span.fileSeconds.toFixed(0)} s of file time)`)
  }
  for (const file of run.slowest) console.log(`  ${file.seconds.toFixed(1).padStart(6)} s  ${file.project.padEnd(13)} ${file.file}`)
  fs.rmSync(folder, { recursive: true, force: true })
} catch (error) {
  console.error(error instanceof Error ? error.message : error)
  console.error(`Left for a look: ${folder}`)
  process.exitCode = 1
}
