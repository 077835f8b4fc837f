import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { measureBundle } from "../../bench/lib/build.mjs";
import { writeDocument } from "../../scripts/openapi.mjs";

// Issue 38 (docs/performance.md, Bundle): what keeps the deployed Worker small, checked on the
// bundle `wrangler deploy` builds. The size itself is the benchmark's row.
const root = fileURLToPath(new URL("../..", import.meta.url));
const outdir = mkdtempSync(join(tmpdir(), "bundle-"));
let bundle;

beforeAll(async () => {
  await writeDocument();
  bundle = await measureBundle(root, outdir);
});
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

describe("the Worker's bundle", () => {
  it("holds no OpenAPI generator: the document is built at build time (scripts/openapi.mjs)", () => {
    const packages = bundle.byPackage.map((p) => p.name);
    expect(packages).not.toContain("@asteasolutions/zod-to-openapi");
    expect(packages).not.toContain("@hono/zod-openapi");
  });

  it("holds only the zod it uses: no module imports zod's `z` object (use `import * as z from \"src/http/zod\"`)", async () => {
    const { readFile } = await import("node:fs/promises");
    const meta = JSON.parse(await readFile(join(outdir, "meta.json"), "utf8"));
    const { inputs: used } = Object.values(meta.outputs).find((o) => o.entryPoint);
    const inputs = Object.keys(used).filter((file) => used[file].bytesInOutput > 0);
    expect(inputs.some((file) => file.includes("zod/v4/core"))).toBe(true);
    // A part of zod nothing here calls (z.fromJSONSchema), bundled only when its whole namespace is kept.
    expect(inputs.filter((file) => file.endsWith("zod/v4/classic/from-json-schema.js"))).toEqual([]);
  });
});
