import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { buildEditor, MODULE_FILE, moduleOf } from "../../scripts/editor-script.mjs";

// DESIGN 25: the description editor's script is a static asset whose address the Worker learns
// from a committed module (src/console/jobs/editor/asset.ts); both must be what the sources make.
describe("the description editor's script", () => {
  it("is named in src/console/jobs/editor/asset.ts as its sources and ProseMirror build it (else: npm run editor:script)", async () => {
    const { path } = await buildEditor();
    expect(readFileSync(MODULE_FILE, "utf8")).toBe(moduleOf(path));
  });

  it("is in the static assets as npm install built it, under that name", async () => {
    const { path, script } = await buildEditor();
    const file = fileURLToPath(new URL(`../../src/static${path}`, import.meta.url));
    expect(existsSync(file)).toBe(true);
    expect(readFileSync(file, "utf8")).toBe(script);
  });

  it("carries the licences of what it bundles", async () => {
    const { script } = await buildEditor();
    expect(script.startsWith("/*! ")).toBe(true);
    expect(script).toContain("prosemirror-view");
    expect(script).toContain("Permission is hereby granted");
  });
});
