import fs from "node:fs"

import js from "@eslint/js"
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript"
import importX from "eslint-plugin-import-x"
import reactHooks from "eslint-plugin-react-hooks"
import tseslint from "typescript-eslint"

/** The folders of src/ imported as ~<folder>/…, but the ones named. */
const SRC_FOLDERS = ["analysis", "background", "contents", "core", "engine-check", "extension", "http", "panel", "site", "site-mount", "site-session", "tabs", "ui"]
const OUR_FOLDERS_BUT = (...allowed) => `^~(${SRC_FOLDERS.filter((folder) => !allowed.includes(folder)).join("|")})(/|$)`

/** The folders of src/extension/ that code in web pages may not import: all but in-page/ and messaging/. */
const IN_PAGE_REFUSED_EXTENSION_FOLDERS = ["account", "browser", "capture", "page-translation", "panel-handoff", "reverse-search", "site-link", "storage"]

/** A layer rule: in `files` (but `ignores`), an import whose path matches one of `forbidden` fails with `message`. */
function layer(files, message, forbidden, ignores = []) {
  return [
    {
      files,
      ignores,
      rules: { "no-restricted-imports": ["error", { patterns: forbidden.map((regex) => ({ regex, message: `Layers: ${message}.` })) }] }
    }
  ]
}

// Plasmo's bundler (Parcel) leaves zod 4's named `z` undefined in the built extension: the service worker then throws
// at start. The namespace import works everywhere. A constant because a later block setting no-restricted-syntax
// replaces the earlier list, so the server's query rule repeats it.
const ZOD_NAMESPACE_ONLY = {
  selector: "ImportDeclaration[source.value='zod'][importKind!='type'] > ImportSpecifier[imported.name='z'][importKind!='type']",
  message: 'Use import * as z from "zod": the extension\'s bundler breaks the named import.'
}

/** The site's features: the folders of src/site/ but shared/ (docs/development.md, Layout), a new one included. */
const SITE_FEATURES = fs
  .readdirSync(`${import.meta.dirname}/src/site`, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && entry.name !== "shared")
  .map((entry) => entry.name)
const SITE_FEATURES_APART =
  "Site features: a feature imports no other; what two use lives in src/site/shared/, and the app's files at src/site/ compose features (docs/development.md, Layout)."

// In a server feature, routes.ts parses, authorises and calls, *-service.ts orchestrates; the queries live in the
// feature's store (docs/development.md, Layout): no query anywhere in server/ outside a *-store.ts and server/db/.
const QUERIES_IN_STORE = "Queries live in the feature's store, a *-store.ts (docs/development.md, Layout)"
const NO_QUERIES = [
  { selector: "CallExpression[callee.property.name=/^(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto)$/]", message: QUERIES_IN_STORE },
  { selector: "TaggedTemplateExpression[tag.name='sql']", message: QUERIES_IN_STORE }
]

export default tseslint.config(
  // tests/lint/planted-*: the files the cycle test writes for a moment, while npm test may be linting.
  { ignores: ["build/", "dist/", ".plasmo/", "node_modules/", "coverage/", "tests/.artifacts/", "bench/results/", "tests/lint/planted-*/"] },
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
      "no-restricted-syntax": ["error", ZOD_NAMESPACE_ONLY]
    }
  },
  // No import cycles anywhere: a cycle is two modules that cannot be understood, tested or loaded one without the other.
  {
    files: ["**/*.{ts,tsx}"],
    plugins: { "import-x": importX },
    settings: {
      // Which files the plugin parses, and with what (its TypeScript preset), to follow imports.
      "import-x/extensions": importX.flatConfigs.typescript.settings["import-x/extensions"],
      "import-x/parsers": importX.flatConfigs.typescript.settings["import-x/parsers"],
      "import-x/resolver-next": [createTypeScriptImportResolver({ project: "tsconfig.json" })]
    },
    rules: { "import-x/no-cycle": ["error", { ignoreExternal: true }] }
  },
  // The layers (docs/development.md, Layout): core imports nothing of ours, the design system only core, the server only core; the
  // extension reaches the site only through its mount (src/site-mount/), and the site never reaches the extension.
  ...layer(["src/core/*.ts"], "core imports nothing of ours but core", [OUR_FOLDERS_BUT("core"), "^\\.\\./"]),
  ...layer(["src/core/*/**"], "core imports nothing of ours but core", [OUR_FOLDERS_BUT("core"), "^\\.\\./\\.\\./"]),
  ...layer(["src/ui/**"], "the design system knows no data: it imports only core", [OUR_FOLDERS_BUT("core", "ui"), "^\\.\\./"]),
  ...layer(["server/**"], "the server imports only core of the browser code", [OUR_FOLDERS_BUT("core"), "^(\\.\\./)+src/"]),
  ...layer(
    ["src/extension/**", "src/background/**", "src/contents/**", "src/panel/**", "src/analysis/**", "src/engine-check/**", "src/popup.tsx", "src/sidepanel.tsx", "src/tabs/**"],
    "the extension reaches the site only through its mount, src/site-mount/",
    ["^~(site|site-session|site-mount)/"]
  ),
  // What runs inside every web page (the on-image button's content script, the page index) stays tiny and free of the
  // validation library (tests/e2e/content-script-size.test.ts weighs the bundles). Of the extension's folders it reaches
  // only messaging/ (and in-page/ itself): each other one holds zod, the storage library or React. Later than the
  // extension's layer above, so it repeats its patterns: the last block of a rule wins.
  ...layer(
    ["src/extension/in-page/**", "src/contents/**"],
    "the code in every web page stays tiny: no zod, React or storage library, nothing of the panel, the account or the site",
    [
      "^zod(/|$)",
      "^react(-dom)?(/|$)",
      "^radix-ui(/|$)",
      "^@plasmohq/storage",
      "^~(panel|analysis|engine-check|ui|http|background|tabs|site|site-session|site-mount)/",
      `^(~extension/|\\.\\./)(${IN_PAGE_REFUSED_EXTENSION_FOLDERS.join("|")})/`
    ],
    ["**/*.test.{ts,tsx}"]
  ),
  ...layer(["src/site-mount/**"], "the site's mount shows the site in an extension page; of the extension it reads only the API address", ["^~(background|contents|panel|analysis|engine-check|tabs)/"]),
  ...layer(["src/site/**", "src/site-session/**", "src/http/**"], "the site never imports the extension's internals", ["^~(extension|background|contents|panel|analysis|engine-check)/"]),
  // The site's features (each folder of src/site/ but shared/) import no other feature, by an alias or a relative path:
  // what two use lives in src/site/shared/, which imports no feature, and the app's files at src/site/ (routes.tsx,
  // the *Route.tsx that compose a page with other features' parts) wire them. Tests drive the whole app and are free.
  {
    files: ["src/site/**/*.{ts,tsx}"],
    ignores: ["src/site/**/*.test.{ts,tsx}", "src/site/**/*-test-kit.{ts,tsx}", "src/site/**/*.test-support.ts"],
    plugins: { "import-x": importX },
    rules: {
      "import-x/no-restricted-paths": [
        "error",
        {
          basePath: import.meta.dirname,
          zones: [
            ...SITE_FEATURES.map((feature) => ({ target: `./src/site/${feature}/**`, from: `./src/site/!(${feature}|shared)/**/*`, message: SITE_FEATURES_APART })),
            { target: "./src/site/shared/**", from: "./src/site/!(shared)/**/*", message: "Site features: src/site/shared/ imports no feature (docs/development.md, Layout)." }
          ]
        }
      ]
    }
  },
  {
    files: ["server/**/*.ts"],
    ignores: ["server/**/*-store.ts", "server/db/**", "server/**/*.test.ts", "server/**/*test-kit.ts", "server/**/test-support.ts", "server/test-kit/**"],
    rules: { "no-restricted-syntax": ["error", ZOD_NAMESPACE_ONLY, ...NO_QUERIES] }
  },
  // The unit files share one process and one page (vitest.config.ts); tests/setup/dom.ts undoes what vi.spyOn and
  // vi.stubGlobal replaced after each file, but not a global or a prototype method overwritten by assignment.
  {
    files: ["src/**/*.test.{ts,tsx}", "scripts/**/*.test.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        ZOD_NAMESPACE_ONLY,
        {
          selector: "AssignmentExpression > MemberExpression.left[object.property.name='prototype']",
          message: "Replace a prototype's method with vi.spyOn, which the unit setup restores after the file."
        },
        {
          selector: "AssignmentExpression > MemberExpression.left[object.name=/^(window|globalThis|self|navigator|URL|document|Element|HTMLElement)$/][property.name!=/^(innerHTML|title|cookie)$/]",
          message: "Replace a global with vi.stubGlobal or vi.spyOn, which the unit setup restores after the file."
        }
      ]
    }
  },
  // Firefox ESR 140's WebDriver BiDi knows no screen-orientation override (setViewport sends one), and waitForFunction's
  // Function() is refused by a page's CSP in Firefox: tests/e2e/firefox.ts says what to use instead.
  {
    files: ["tests/e2e/firefox*.ts"],
    rules: {
      "no-restricted-properties": [
        "error",
        { property: "waitForFunction", message: "Firefox refuses its Function() on a page with a CSP: use waitInPage (tests/e2e/firefox.ts)." },
        { property: "setViewport", message: "Firefox ESR 140 refuses it: size the window at launch or through the browser (tests/e2e/firefox.ts)." }
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
