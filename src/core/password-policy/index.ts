/** The password policy: one module for the server's check and the forms' hint. */
export * from "./types"
export * from "./defaults"
export * from "./safe-regex"
export * from "./schema"
export * from "./engine"
export * from "./hints"
export * from "./update"
