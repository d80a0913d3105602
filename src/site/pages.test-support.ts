/**
 * The lazy pages a test file opens, imported before its first test (`beforeAll(preloadDashboard, 60_000)`): on a busy
 * 2-core machine the first import of a page and everything it imports can outlast a wait of 10 s, and only the file's
 * first test would pay for it.
 */
export const preloadDashboard = () => import("./DashboardRoute")
