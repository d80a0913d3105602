import { inject } from "vitest"

import { serviceReady } from "./run-services"

// Every browser test file, before its own code: the run's services it uses are ready (tests/setup/run-services.ts).
await serviceReady(inject("runServices"))
