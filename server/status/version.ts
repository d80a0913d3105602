/** The app version reported by GET /api/status and the API reference; kept equal to package.json by version.test.ts. */
export const APP_VERSION = "1.0.0"
