import { spawn } from "node:child_process"
import fs from "node:fs/promises"
import os from "node:os"
import path from "node:path"
import { fileURLToPath } from "node:url"

import { freePort } from "../free-port"

declare module "vitest" {
  export interface ProvidedContext {
    /** host:port of the run's Firebase Auth emulator (what FIREBASE_AUTH_EMULATOR_HOST takes). */
    firebaseAuthEmulatorHost: string
  }
}

/** The run's emulator among its shared services (tests/setup/run-services.ts), started by the API projects. */
export const FIREBASE_EMULATOR_SERVICE = "Firebase Auth emulator"

/** The project the emulator serves; a "demo-" id tells firebase-tools never to reach a real project. */
export const EMULATOR_PROJECT_ID = "demo-image-query-ai"
/** The emulator starts in about 10 s on an idle machine; a loaded one needs more. */
const START_TIMEOUT_MS = 90_000

/**
 * A Google user signing in through the emulator at `host`: its ID token (the same `sub` is the same Google account,
 * the same Firebase uid). The emulator makes one from plain claims, as tests of the server need.
 */
export async function emulatorGoogleIdToken(host: string, claims: { sub: string; email: string; email_verified?: boolean; name?: string }): Promise<string> {
  const idp = { email_verified: true, ...claims }
  const response = await fetch(`http://${host}/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp?key=demo-api-key`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ postBody: `providerId=google.com&id_token=${JSON.stringify(idp)}`, requestUri: "http://localhost", returnIdpCredential: true, returnSecureToken: true })
  })
  const body = (await response.json()) as { idToken?: string }
  if (!body.idToken) throw new Error(`the emulator gave no ID token: ${JSON.stringify(body)}`)
  return body.idToken
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..")


async function isReady(host: string): Promise<boolean> {
  try {
    const response = await fetch(`http://${host}/`, { signal: AbortSignal.timeout(1000) })
    return response.ok && ((await response.json()) as { authEmulator?: { ready?: boolean } }).authEmulator?.ready === true
  } catch {
    return false
  }
}

/**
 * Starts the Firebase Auth emulator (offline, no UI) on free ports: answers its host:port at once, `ready` once it
 * serves, and a stop. It must start: `ready` rejects with the emulator's output otherwise, so the tests that need it
 * fail rather than skip.
 */
export async function startFirebaseAuthEmulator(): Promise<{ host: string; ready: Promise<void>; stop(): Promise<void> }> {
  const folder = await fs.mkdtemp(path.join(os.tmpdir(), "iqa-firebase-emulator-"))
  const [authPort, hubPort, loggingPort] = [await freePort(), await freePort(), await freePort()]
  await fs.writeFile(
    path.join(folder, "firebase.json"),
    JSON.stringify({
      emulators: {
        auth: { host: "127.0.0.1", port: authPort },
        hub: { host: "127.0.0.1", port: hubPort },
        logging: { host: "127.0.0.1", port: loggingPort },
        ui: { enabled: false },
        singleProjectMode: true
      }
    })
  )
  const host = `127.0.0.1:${authPort}`
  let output = ""
  const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: folder }
  delete env.FIREBASE_AUTH_EMULATOR_HOST
  // Its own process group, so teardown ends the emulator together with whatever it started.
  const emulator = spawn(path.join(root, "node_modules/.bin/firebase"), ["emulators:start", "--only", "auth", "--project", EMULATOR_PROJECT_ID], {
    cwd: folder,
    detached: true,
    // firebase-tools writes its hub locator file to the temporary folder: a private one keeps parallel runs apart.
    env,
    stdio: ["ignore", "pipe", "pipe"]
  })
  emulator.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()))
  emulator.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<number | null>((resolve) => emulator.on("exit", (code) => resolve(code)))
  let stopped = false
  // A run ended without teardown (Ctrl-C, a crash) must not leave the detached emulator behind.
  const killOnExit = () => {
    if (!stopped && emulator.pid) process.kill(-emulator.pid, "SIGKILL")
  }
  process.once("exit", killOnExit)
  exited.then(
    () => {
      stopped = true
      process.off("exit", killOnExit)
    },
    () => undefined
  )

  const stop = async () => {
    if (!stopped && emulator.pid) {
      try {
        process.kill(-emulator.pid, "SIGTERM")
      } catch {
        // Already gone.
      }
      const killed = await Promise.race([exited.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 5000))])
      if (!killed) {
        try {
          process.kill(-emulator.pid, "SIGKILL")
        } catch {
          // Already gone.
        }
      }
    }
    await fs.rm(folder, { recursive: true, force: true })
  }

  const deadline = Date.now() + START_TIMEOUT_MS
  const ready = (async () => {
    while (!(await isReady(host))) {
      if (stopped || Date.now() > deadline) {
        await stop()
        throw new Error(`The Firebase Auth emulator did not start (${stopped ? "it exited" : `not ready after ${START_TIMEOUT_MS / 1000} s`}):\n${output}`)
      }
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
  })()
  return { host, ready, stop }
}
