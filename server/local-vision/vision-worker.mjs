// The entry of each worker thread of the vision pool (./vision-pool.ts). A worker thread starts without the TypeScript
// loader of the process that made it (tsx under `npm run dev`, vite's under vitest; `npm start` runs the server's
// bundle, which has none), so it registers tsx itself, with the project's tsconfig for the ~core/ alias, before
// loading the task in TypeScript.
import { fileURLToPath } from "node:url"

import { register } from "tsx/esm/api"

register({ tsconfig: fileURLToPath(new globalThis.URL("../../tsconfig.json", import.meta.url)) })
const { runVisionTask } = await import("./vision-task.ts")

export default runVisionTask
