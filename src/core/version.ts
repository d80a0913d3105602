/** The app version reported by GET /api/status; kept equal to package.json by a unit test. */
export const APP_VERSION = "1.0.0"
