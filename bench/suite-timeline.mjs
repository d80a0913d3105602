// A vitest reporter for `npm run bench:suite` (bench/suite.mjs): one JSON line per test file's start and end, with
// its project and duration, appended to the file SUITE_TIMELINE names. vitest's own summary gives the sum of the
// files' times, not when each phase (unit, API, browser) began and ended, which is what tells where the run waits.
import fs from "node:fs"

const out = process.env.SUITE_TIMELINE

function write(event) {
  if (out) fs.appendFileSync(out, `${JSON.stringify({ t: Date.now(), ...event })}\n`)
}

const fileOf = (testModule) => testModule.relativeModuleId ?? testModule.moduleId

export default class SuiteTimeline {
  onTestRunStart() {
    write({ event: "run-start" })
  }

  onTestModuleStart(testModule) {
    write({ event: "start", project: testModule.project.name, file: fileOf(testModule) })
  }

  onTestModuleEnd(testModule) {
    write({ event: "end", project: testModule.project.name, file: fileOf(testModule), ms: testModule.diagnostic().duration, ok: testModule.ok() })
  }

  onTestRunEnd() {
    write({ event: "run-end" })
  }
}
