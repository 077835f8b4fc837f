import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { buildPasskeysWorker } from "../../workers/passkeys/build.mjs";

// The XSS corpus lives outside the project (CI: ../shared/corpora/xss). Tests inside workerd
// cannot read files, so the strings are read here, in Node, and handed over as bindings.

const root = fileURLToPath(new URL("../..", import.meta.url));

function readCorpus(file: string): string[] {
  const dir = process.env.XSS_CORPUS_DIR;
  if (!dir) throw new Error("Set XSS_CORPUS_DIR to the directory holding vectors.json and benign.json (CI: ../shared/corpora/xss).");
  const path = resolve(root, dir, file); // a relative XSS_CORPUS_DIR is read from the repo root
  if (!existsSync(path)) throw new Error(`XSS corpus file missing: ${path}`);
  const strings: unknown = JSON.parse(readFileSync(path, "utf8"));
  if (!Array.isArray(strings) || strings.length === 0 || !strings.every((s) => typeof s === "string")) {
    throw new Error(`${path} must be a non-empty JSON array of strings`);
  }
  return strings;
}

export default defineConfig(async () => ({
  root,
  plugins: [
    cloudflareTest({
      wrangler: { configPath: `${root}wrangler.toml` },
      miniflare: {
        // The Worker's service binding PASSKEYS must name a Worker for the runtime to start.
        workers: [{ ...(await buildPasskeysWorker(`${root}.wrangler/test/passkeys-worker.js`)), modules: true }],
        bindings: { XSS_VECTORS: readCorpus("vectors.json"), XSS_BENIGN: readCorpus("benign.json") },
      },
    }),
  ],
  test: {
    include: ["test/corpus/**/*.test.ts"],
  },
}));
