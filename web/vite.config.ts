import path from "node:path"
import { fileURLToPath } from "node:url"

import react from "@vitejs/plugin-react"
import { defineConfig } from "vite"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")

/** The static web build of the companion site, served by the API server from dist/web. */
export default defineConfig({
  root: path.join(root, "web"),
  publicDir: path.join(root, "web/public"),
  envDir: root,
  // Only PUBLIC_* variables reach the bundle; secrets never do.
  envPrefix: "PUBLIC_",
  plugins: [react()],
  resolve: {
    alias: [{ find: /^~(.*)$/, replacement: `${path.join(root, "src")}/$1` }]
  },
  css: { postcss: root },
  build: {
    outDir: path.join(root, "dist/web"),
    emptyOutDir: true,
    sourcemap: true,
    target: "es2022",
    assetsInlineLimit: 0
  },
  server: {
    // /api goes to the API server: the one `npm run dev` starts beside Vite on DEV_API_PORT, or, for
    // `npm run dev:web` alone, `npm start`'s on 8787.
    proxy: { "/api": `http://127.0.0.1:${process.env.DEV_API_PORT || 8787}` }
  }
})
