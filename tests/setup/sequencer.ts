import { BaseSequencer, type TestSpecification } from "vitest/node"

/**
 * Vitest's order (failed first, then the slowest), kept within each project, with the projects one after another
 * in the order of the config. With isolate off, a worker goes on to the next file only when that file is of the same
 * project (vitest starts a new worker otherwise): mixed projects would start a new worker almost every time.
 */
export default class ProjectSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    const names = this.ctx.projects.map((project) => project.name)
    const rank = (file: TestSpecification) => names.indexOf(file.project.name)
    // Array.prototype.sort is stable: the base order holds within a project.
    return [...sorted].sort((a, b) => rank(a) - rank(b))
  }
}
