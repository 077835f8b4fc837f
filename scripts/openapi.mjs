#!/usr/bin/env node
// Builds the OpenAPI document the Worker serves (GET /api/v1.1/openapi.json) into the Worker's
// static assets, src/static/api/v1.1/openapi.json (git-ignored): from the routes the app registers (src/app.ts's
// createApp, the same definitions that validate and type each request), by
// src/http/openapi-document.ts. Run by `npm install` (postinstall), `npm test`, `npm run dev` and
// `npm run deploy`, so the document always matches the code; safe to run again. The generator
// (zod-to-openapi) then stays out of the Worker's bundle (docs/performance.md: Bundle).
//
// The app's TypeScript is bundled for Node by the esbuild that wrangler bundles the Worker with.
import { createRequire } from "node:module";
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
// At the document's own address: /api/* always reaches the Worker first (wrangler.toml
// run_worker_first), so the file is never served as is; the Worker reads it through its ASSETS
// binding and fills in `servers`. Out of the Worker's script: 18 KiB gzip less (issue 38).
const DOCUMENT_PATH = "src/static/api/v1.1/openapi.json";
export const DOCUMENT_FILE = join(root, DOCUMENT_PATH);

const esbuild = createRequire(createRequire(import.meta.url).resolve("wrangler/package.json"))("esbuild");

// @hono/zod-openapi first: it extends zod with the real `.openapi()` before any schema is built
// (src/http/zod.ts gives the Worker a no-op one otherwise).
const ENTRY = `
import "@hono/zod-openapi";
import { createApp } from "./src/app.ts";
import { buildDocument } from "./src/http/openapi-document.ts";
export const document = buildDocument(createApp());
`;

/** Modules the generator imports but never runs: Workers' runtime modules. */
const notRunHere = {
  name: "not-run-here",
  setup(build) {
    build.onResolve({ filter: /^cloudflare:/ }, ({ path }) => ({ path, namespace: "not-run-here" }));
    build.onLoad({ filter: /.*/, namespace: "not-run-here" }, () => ({ contents: "module.exports = {};", loader: "js" }));
  },
};

/** The document as the Worker serves it, `servers` aside (filled in per request). */
export async function buildDocument() {
  const { outputFiles } = await esbuild.build({
    stdin: { contents: ENTRY, resolveDir: root, sourcefile: "openapi-entry.ts", loader: "ts" },
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    write: false,
    logLevel: "error",
    plugins: [notRunHere],
  });
  const dir = mkdtempSync(join(tmpdir(), "openapi-"));
  try {
    const file = join(dir, "generate.mjs");
    writeFileSync(file, outputFiles[0].contents);
    return (await import(pathToFileURL(file).href)).document;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Writes the document, and says whether it changed. */
export async function writeDocument() {
  const text = `${JSON.stringify(await buildDocument())}\n`;
  let previous = null;
  try {
    previous = readFileSync(DOCUMENT_FILE, "utf8");
  } catch {
    // first build
  }
  if (previous !== text) {
    // Whole or not at all: wrangler dev or a test run may be reading it meanwhile.
    mkdirSync(dirname(DOCUMENT_FILE), { recursive: true });
    const partial = `${DOCUMENT_FILE}.${process.pid}.tmp`;
    writeFileSync(partial, text);
    renameSync(partial, DOCUMENT_FILE);
  }
  return { changed: previous !== text, bytes: Buffer.byteLength(text) };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { changed, bytes } = await writeDocument();
  console.log(`openapi: ${DOCUMENT_PATH} ${changed ? "written" : "unchanged"} (${bytes} bytes)`);
}
