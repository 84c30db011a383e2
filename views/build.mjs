// Builds the views' parts into core/data/views/: the SDK's App API bundled once
// (`sdk.js`), each view's own code (`<view>.js`), the shared style (`views.css`) and the
// page (`page.html`). The core puts each view's page together once, at start-up
// (core/src/views.rs), into one self-contained HTML file: no CDN, no network, no eval.
// The views are the catalog's (core/src/views.rs): `cargo xtask views [--check]` names
// them as this script's arguments (`node build.mjs [--check] <view>...`). Each page the
// server serves must stay under 100 KB gzipped: mcp/src/views.rs's tests measure it.
// `--check` fails when a committed part differs from what this builds.
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const here = path.dirname(fileURLToPath(import.meta.url));
const out = path.join(here, "..", "core", "data", "views");
/** The views, by name (`src/<name>.js`), as the catalog lists them. */
const VIEWS = process.argv.slice(2).filter((arg) => !arg.startsWith("--"));
if (VIEWS.length === 0) throw new Error("no views named: run through `cargo xtask views`");
const SDK_GLOBAL = "toolpackApps";

/** zod's error messages in English only: its 40-odd other locales are ~60 KB gzipped. */
const englishOnly = {
  name: "zod-english-only",
  setup(build) {
    build.onLoad({ filter: /zod[/\\]v4[/\\]locales[/\\]index\.js$/ }, (args) => ({
      contents: 'export { default as en } from "./en.js";',
      resolveDir: path.dirname(args.path),
      loader: "js",
    }));
  },
};

/**
 * The MCP SDK and zod are bundled as free of side effects (their packages do not say so),
 * so what the App API does not use (the HTTP transports, auth, JSON Schema validators)
 * is left out.
 */
const pureDependencies = {
  name: "pure-dependencies",
  setup(build) {
    build.onResolve({ filter: /.*/ }, async (args) => {
      if (args.pluginData === "pure" || args.kind === "entry-point") return undefined;
      const resolved = await build.resolve(args.path, {
        resolveDir: args.resolveDir,
        kind: args.kind,
        importer: args.importer,
        pluginData: "pure",
      });
      if (resolved.errors.length > 0) return resolved;
      const pure = /node_modules[/\\](zod|@modelcontextprotocol[/\\](client|core))[/\\]/.test(resolved.path);
      return pure ? { ...resolved, sideEffects: false } : resolved;
    });
  },
};

/** A view's own code takes the SDK from the shared bundle. */
const sharedSdk = {
  name: "shared-sdk",
  setup(build) {
    build.onResolve({ filter: /^@modelcontextprotocol\/ext-apps$/ }, () => ({ path: "sdk", namespace: "shared" }));
    build.onLoad({ filter: /.*/, namespace: "shared" }, () => ({
      contents: `export const { App, applyDocumentTheme, applyHostFonts, applyHostStyleVariables } = globalThis.${SDK_GLOBAL};`,
      loader: "js",
    }));
  },
};

const common = { bundle: true, minify: true, write: false, legalComments: "none", target: "es2022", charset: "utf8", logLevel: "error" };

async function bundle(entry, options) {
  const result = await esbuild.build({ ...common, entryPoints: [path.join(here, "src", entry)], ...options });
  // Inline in a <script>: no "</script" may close it early.
  return result.outputFiles[0].text.replaceAll("</script", "<\\/script");
}

const sdk = await bundle("sdk.js", { format: "iife", globalName: SDK_GLOBAL, plugins: [englishOnly, pureDependencies] });
const css = (await esbuild.transform(await readFile(path.join(here, "src", "views.css"), "utf8"), { loader: "css", minify: true })).code;

/** The page every view is served in; the core fills in the marked parts. */
const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>toolpack · <!--title--></title>
<style><!--style--></style>
</head>
<body>
<main id="root" aria-live="polite"><p class="muted">Waiting for the tool's answer…</p></main>
<script>globalThis.__zod_globalConfig = { jitless: true };</script>
<script><!--sdk--></script>
<script><!--view--></script>
</body>
</html>
`;

const parts = new Map([
  ["page.html", PAGE],
  ["sdk.js", sdk],
  ["views.css", css],
]);
for (const name of VIEWS) {
  const code = await bundle(`${name}.js`, { format: "iife", plugins: [sharedSdk] });
  parts.set(`${name}.js`, code);
  console.log(`views: ${name}: its own code ${(code.length / 1024).toFixed(1)} KB`);
}

const stale = [];
for (const [name, text] of parts) {
  const file = path.join(out, name);
  if (process.argv.includes("--check")) {
    if ((await readFile(file, "utf8").catch(() => "")) !== text) stale.push(file);
  } else {
    await writeFile(file, text);
  }
}
if (stale.length > 0) {
  console.error(`views: out of date, run \`cargo xtask views\`: ${stale.join(", ")}`);
  process.exit(1);
}
