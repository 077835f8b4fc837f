import { execFile } from "node:child_process";
import { cp, readdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";

const run = promisify(execFile);
// wrangler's package exports hide its bin; its package.json sits next to it.
const wranglerBin = join(dirname(fileURLToPath(import.meta.resolve("wrangler/package.json"))), "bin/wrangler.js");

/** Bundles a Worker exactly as `wrangler deploy` would, without deploying it (`config`: another Worker's wrangler.toml). */
export async function bundleWorker(root, outdir, { entry, minify = false, metafile, config } = {}) {
  const args = [wranglerBin, "deploy", ...(config ? ["-c", config] : []), ...(entry ? [entry] : []), "--dry-run", "--outdir", outdir];
  if (minify) args.push("--minify");
  if (metafile) args.push("--metafile", metafile);
  await run(process.execPath, args, {
    cwd: root,
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
    maxBuffer: 16 * 1024 * 1024,
  });
  // Named after the entry: index.js for src/index.ts, probe-worker.js for the probe.
  const script = (await readdir(outdir)).find((f) => f.endsWith(".js"));
  return join(outdir, script);
}

/** A minified bundle's size in bytes, and gzipped (-9) as the upload limit counts it. */
async function sizeOf(script) {
  const code = await readFile(script);
  return { minifiedBytes: code.length, gzipBytes: gzipSync(code, { level: 9 }).length };
}

/** The deployable bundle's size, and which packages its minified bytes come from. */
export async function measureBundle(root, outdir) {
  const metafile = join(outdir, "meta.json");
  const script = await bundleWorker(root, outdir, { minify: true, metafile });
  const meta = JSON.parse(await readFile(metafile, "utf8"));
  const output = Object.values(meta.outputs).find((o) => o.entryPoint);
  const byPackage = new Map();
  const byFile = [];
  for (const [file, { bytesInOutput }] of Object.entries(output.inputs)) {
    byPackage.set(packageOf(file), (byPackage.get(packageOf(file)) ?? 0) + bytesInOutput);
    byFile.push({ file: file.replace(/^.*node_modules\//, ""), bytes: bytesInOutput });
  }
  const locales = byFile.filter((f) => f.file.startsWith("zod/v4/locales/"));
  return {
    ...(await sizeOf(script)),
    zodLocales: { files: locales.length, bytes: locales.reduce((sum, f) => sum + f.bytes, 0) },
    byPackage: [...byPackage].map(([name, bytes]) => ({ name, bytes })).sort((a, b) => b.bytes - a.bytes),
    largestFiles: byFile.sort((a, b) => b.bytes - a.bytes).slice(0, 10),
  };
}

/**
 * The bench's bundle row: the deployable bundle (measureBundle); what both consoles (DESIGN 25,
 * 26) add to it, against a copy of src/ that mounts neither; and the size of the passkeys Worker
 * (workers/passkeys), deployed apart, that verifies the console's passkeys.
 */
export async function measureBundleRow(root, outdir) {
  const [bundle, withoutConsoles, passkeysWorker] = await Promise.all([
    measureBundle(root, outdir),
    bundleWithoutConsoles(root, join(outdir, "no-consoles")).then(sizeOf),
    bundleWorker(root, join(outdir, "passkeys"), { minify: true, config: "workers/passkeys/wrangler.toml" }).then(sizeOf),
  ]);
  const consoles = { minifiedBytes: bundle.minifiedBytes - withoutConsoles.minifiedBytes, gzipBytes: bundle.gzipBytes - withoutConsoles.gzipBytes };
  return { ...bundle, consoles, passkeysWorker };
}

function packageOf(file) {
  const at = file.lastIndexOf("node_modules/");
  if (at < 0) return file.startsWith("src/") ? "src (this project)" : "other";
  const parts = file.slice(at + "node_modules/".length).split("/");
  return parts[0].startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0];
}

/** Replaces `from` by `to` in a file, and fails when `from` is not there (the source moved on). */
async function patch(file, from, to) {
  const text = await readFile(file, "utf8");
  if (!text.includes(from)) throw new Error(`${file} no longer contains ${JSON.stringify(from.slice(0, 60))}: update the bench's patch`);
  await writeFile(file, text.replace(from, to));
}

/**
 * The API built from a copy of src/ with `patches` applied (`[file under src/, from, to]`, each
 * `from` required to be there), bundled like the real one.
 */
export async function bundlePatched(root, outdir, patches) {
  const src = join(outdir, "src");
  await cp(join(root, "src"), src, { recursive: true });
  for (const [file, from, to] of patches) await patch(join(src, file), from, to);
  return bundleWorker(root, outdir, { entry: join(src, "index.ts") });
}

/** The API without the employer's and the operator's consoles (src/app.ts mounts neither, so nothing imports them), minified. */
async function bundleWithoutConsoles(root, outdir) {
  const src = join(outdir, "src");
  await cp(join(root, "src"), src, { recursive: true });
  for (const line of ['import { consolePages } from "./console/app";', 'import { operatorPages } from "./operator/app";', 'app.route("/", consolePages);', 'app.route("/", operatorPages);']) {
    await patch(join(src, "app.ts"), line, "");
  }
  return bundleWorker(root, outdir, { entry: join(src, "index.ts"), minify: true });
}

/**
 * The same API with no posting rules (DESIGN 19): a copy of src/ whose rule list is empty and
 * whose Canadian-experience word check finds nothing, bundled like the real one. The bench
 * measures writes against it in the same run, to show what checking the rules costs.
 */
export async function bundleWithoutPostingRules(root, outdir) {
  const src = join(outdir, "src");
  await cp(join(root, "src"), src, { recursive: true });
  await patch(join(src, "postingrules/rules.ts"), "export const POSTING_RULES: readonly PostingRule[] = [", "export const POSTING_RULES: readonly PostingRule[] = [];\nexport const UNUSED_RULES: readonly PostingRule[] = [");
  await patch(
    join(src, "postingrules/wording.ts"),
    "export function mentionsCanadianExperience(text: string | null | undefined): boolean {",
    "export function mentionsCanadianExperience(text: string | null | undefined): boolean {\n  if (text !== undefined) return false;",
  );
  return bundleWorker(root, outdir, { entry: join(src, "index.ts") });
}

/**
 * The same API without view counting (DESIGN 21): a copy of src/ whose counting middleware only
 * passes the request on. The bench measures board reads against it in the same run, to show what
 * counting views costs a read.
 */
export async function bundleWithoutViewCounting(root, outdir) {
  const src = join(outdir, "src");
  await cp(join(root, "src"), src, { recursive: true });
  await patch(
    join(src, "stats/views.ts"),
    "export function countingViews(jobIdOf: (c: Context<AppEnv>) => number | null): MiddlewareHandler<AppEnv> {",
    "export function countingViews(jobIdOf: (c: Context<AppEnv>) => number | null): MiddlewareHandler<AppEnv> {\n  if (jobIdOf) return (_c, next) => next();",
  );
  return bundleWorker(root, outdir, { entry: join(src, "index.ts") });
}
