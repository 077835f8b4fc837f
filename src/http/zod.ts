// zod, as every module of the Worker imports it: `import * as z from "<this module>"`.
//
// Why not `import { z } from "zod"` (or from "@hono/zod-openapi"): esbuild can drop what a
// namespace import does not use, but not what is reached through zod's `z` object, so that form
// bundles all of zod (JSON Schema conversion, `z.compile`, …): about 100 KB minified more.
//
// Why here and not straight from "zod": schemas carry OpenAPI metadata (`.openapi(...)`), which only
// the build-time document generator reads (src/http/openapi-document.ts, run by
// scripts/openapi.mjs). The generator loads @hono/zod-openapi first, whose zod-to-openapi installs
// the real `.openapi()`; the Worker never loads it, and gets an `.openapi()` that keeps the schema
// as it is. zod copies prototype members onto each schema it builds, so this runs before any.
import { ZodType } from "zod";

if (!("openapi" in ZodType.prototype)) {
  (ZodType.prototype as { openapi?: unknown }).openapi = function (this: ZodType) {
    return this;
  };
}

export * from "zod";
