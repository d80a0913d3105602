// The API server as one ES module (dist/server/main.mjs), what `npm start` and the tests' spawned servers run. Loading
// server/main.ts through tsx compiled its ~180 modules one by one on a loader thread at every start: 4.2 s of CPU and
// 2.8 s to the first answer, against 2.7 s and 1.9 s from the bundle (medians of 7 on a quiet 2-core machine).
// esbuild compiles them together once, in 0.2-0.4 s, and a start only checks the bundle is current. Packages stay
// outside the bundle, loaded from node_modules as before.
import fs from "node:fs"
import path from "node:path"
import { performance } from "node:perf_hooks"
import { fileURLToPath } from "node:url"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const BUNDLE_NAME = "main.mjs"
const INPUTS_NAME = "main.inputs.json"

export const SERVER_BUNDLE = path.join(root, "dist/server", BUNDLE_NAME)
const defaultOutDir = path.dirname(SERVER_BUNDLE)

/** Files that change the bundle without being one of its modules. */
const BUILD_FILES = ["package.json", "package-lock.json", "tsconfig.json", path.relative(root, fileURLToPath(import.meta.url))]

/**
 * `import.meta.url` keeps naming the source file: modules find files beside themselves (assets/icon.png, the vision
 * pool's worker entry) and packages through createRequire from there. The bundle computes that address at run time,
 * relative to itself, so it keeps working when the project folder moves. Any other `import.meta` property would
 * silently name the bundle, hence an error.
 */
function sourceImportMetaUrl(outDir) {
  return {
    name: "source-import-meta-url",
    setup(build) {
      build.onLoad({ filter: /\.[cm]?[jt]sx?$/ }, async ({ path: file }) => {
        const source = await fs.promises.readFile(file, "utf8")
        if (!source.includes("import.meta")) return undefined
        const other = /\bimport\.meta\.(?!url\b)\w+/.exec(source)
        if (other) {
          const before = source.slice(0, other.index).split("\n")
          const location = { file: path.relative(root, file), line: before.length, column: before.at(-1).length }
          return { errors: [{ text: `${other[0]} would name the bundle, not this file: use import.meta.url`, location }] }
        }
        const fromBundle = JSON.stringify(path.relative(outDir, file).split(path.sep).join("/"))
        return { contents: source.replaceAll(/\bimport\.meta\.url\b/g, `new URL(${fromBundle}, import.meta.url).href`), loader: "default" }
      })
    }
  }
}

/** One line per esbuild error: file:line:column: message. */
function buildError(failure) {
  if (!Array.isArray(failure?.errors)) return failure
  const lines = failure.errors.map(({ text, location }) => (location ? `${location.file}:${location.line}:${location.column}: ${text}` : text))
  return new Error(`The server build failed:\n${lines.join("\n")}`)
}

/** Writes `contents` under a temporary name beside `file`; the caller renames it into place. */
function writeTemporary(file, contents) {
  const temporary = `${file}.${process.pid}-${Math.random().toString(36).slice(2)}.tmp`
  fs.writeFileSync(temporary, contents)
  return temporary
}

/**
 * Bundles server/main.ts into `outDir` (dist/server by default) with its source map and the list of its inputs.
 * Several servers may start at once on a stale bundle (the end-to-end tests start two), each building: every file is
 * written under a temporary name and renamed into place, the bundle last, so none reads a half-written one. Returns
 * the bundle's path and size.
 */
export async function buildServer({ outDir = defaultOutDir } = {}) {
  const { build } = await import("esbuild")
  const startedAt = new Date()
  const outfile = path.join(outDir, BUNDLE_NAME)
  const result = await build({
    absWorkingDir: root,
    entryPoints: ["server/main.ts"],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    // The ~core/… alias of the server's imports.
    tsconfig: path.join(root, "tsconfig.json"),
    plugins: [sourceImportMetaUrl(outDir)],
    // Stack traces name the TypeScript files; the sources themselves stay in the project, not copied into the map.
    sourcemap: "linked",
    sourcesContent: false,
    metafile: true,
    write: false,
    logLevel: "silent"
  }).catch((failure) => {
    throw buildError(failure)
  })

  const inputs = [...Object.keys(result.metafile.inputs).filter((file) => !file.startsWith("node_modules/")), ...BUILD_FILES]
  fs.mkdirSync(outDir, { recursive: true })
  const output = (file) => result.outputFiles.find((written) => written.path === file).contents
  // The bundle last: it is what a start looks for.
  const writes = [[`${outfile}.map`, output(`${outfile}.map`)], [path.join(outDir, INPUTS_NAME), JSON.stringify(inputs)], [outfile, output(outfile)]]
  const temporaries = writes.map(([file, contents]) => [writeTemporary(file, contents), file])
  try {
    // Dated when the build began: a source saved while it ran is newer, so the next start builds again.
    fs.utimesSync(temporaries.at(-1)[0], startedAt, startedAt)
    for (const [temporary, file] of temporaries) fs.renameSync(temporary, file)
  } finally {
    for (const [temporary] of temporaries) fs.rmSync(temporary, { force: true })
  }
  return { bundle: outfile, bytes: fs.statSync(outfile).size }
}

/**
 * The bundle is current when it exists and none of its inputs (its modules, the package and TypeScript settings, this
 * script) is missing or newer: a stat per file, a few milliseconds.
 */
export function serverBuildIsCurrent(outDir = defaultOutDir) {
  const built = fs.statSync(path.join(outDir, BUNDLE_NAME), { throwIfNoEntry: false })
  const inputsFile = path.join(outDir, INPUTS_NAME)
  if (!built || !fs.existsSync(inputsFile)) return false
  return JSON.parse(fs.readFileSync(inputsFile, "utf8")).every((file) => {
    const input = fs.statSync(path.join(root, file), { throwIfNoEntry: false })
    return input !== undefined && input.mtimeMs <= built.mtimeMs
  })
}

/** Builds the bundle when it is not current (see serverBuildIsCurrent); answers whether it built. */
export async function ensureServerBuild() {
  if (serverBuildIsCurrent()) return false
  await buildServer()
  return true
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const startedAt = performance.now()
  try {
    const { bundle, bytes } = await buildServer()
    console.log(`${path.relative(process.cwd(), bundle)}: ${(bytes / 1024).toFixed(0)} KB in ${Math.round(performance.now() - startedAt)} ms`)
  } catch (error) {
    console.error(error.message)
    process.exit(1)
  }
}
