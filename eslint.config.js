import js from "@eslint/js"
import reactHooks from "eslint-plugin-react-hooks"
import tseslint from "typescript-eslint"

export default tseslint.config(
  { ignores: ["build/", "dist/", ".plasmo/", "node_modules/", "coverage/", "tests/.artifacts/", "bench/results/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "no-console": ["error", { allow: ["warn", "error"] }],
      // Plasmo's bundler (Parcel) leaves zod 4's named `z` undefined in the built extension: the service worker
      // then throws at start. The namespace import works everywhere.
      "no-restricted-syntax": [
        "error",
        { selector: "ImportDeclaration[source.value='zod'][importKind!='type'] > ImportSpecifier[imported.name='z'][importKind!='type']", message: 'Use import * as z from "zod": the extension\'s bundler breaks the named import.' }
      ]
    }
  },
  {
    files: ["server/main.ts", "scripts/**", "bench/**", "tests/**"],
    rules: { "no-console": "off" }
  },
  {
    files: ["**/*.{js,mjs,cjs}"],
    languageOptions: { globals: { process: "readonly", console: "readonly", module: "writable", require: "readonly" } }
  }
)
