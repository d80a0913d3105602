/** The API origin baked into the extension at build time (PLASMO_PUBLIC_API_URL). */
export const DEFAULT_API_ORIGIN = (process.env.PLASMO_PUBLIC_API_URL || "http://localhost:8787").replace(/\/+$/, "")
