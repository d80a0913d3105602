/**
 * The server's test kit: what the API tests of every feature, the instance and crash tests and the end-to-end tests
 * share (an app on a fresh database, users, a stand-in for the services outside our control, images, the real
 * server process). A feature's own helpers stay in its folder (billing/test-support.ts).
 */
export * from "./app"
export * from "./dns-stand-in"
export * from "./images"
export * from "./spawned-server"
export * from "./stand-in"
export * from "./two-step"
export * from "./users"
