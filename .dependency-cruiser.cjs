// DESIGN 16b: the layering of src/, checked by dependency-cruiser in `npm test`.
// Platform folders are handed what they run; capabilities never lean on each other both ways.
const PLATFORM = "^src/(http|events|shards|scheduled|db)/";
const CAPABILITY = "^src/(accounts|console|alerts|applications|board|employers|idempotency|jobs|locations|operator|pages|reach|reference|reports|screening|stats|webhooks)/";

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "No module of src/ reaches itself again through its imports.",
      severity: "error",
      from: { path: "^src/" },
      to: { circular: true },
    },
    {
      name: "platform-imports-no-capability",
      comment: "http, events, shards, scheduled and db import no capability: the entry hands them what they run (DESIGN 16b).",
      severity: "error",
      from: { path: PLATFORM },
      to: { path: CAPABILITY },
    },
    {
      name: "nothing-imports-the-entry",
      comment: "src/index.ts only wires; nothing below it imports it (tests may).",
      severity: "error",
      from: { path: "^src/" },
      to: { path: "^src/index\\.ts$" },
    },
    {
      name: "no-capabilities-both-ways",
      comment: "Two folders of src/ never import each other both ways.",
      severity: "error",
      scope: "folder",
      from: { path: "^src/" },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^src/static/" },
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default", "types"], extensions: [".ts", ".tsx", ".js", ".mjs"] },
  },
};
