import { buildWeb, projectRoot, webBuildIsCurrent } from "../scripts/web-build.mjs"

export { projectRoot }

/** Builds the web site first when npm start would, so the build stays out of the timed start. */
export function ensureCurrentWebBuild(): boolean {
  if (webBuildIsCurrent()) return false
  // Build output goes to stderr so that stdout carries only the figures.
  buildWeb({ output: 2 })
  return true
}
