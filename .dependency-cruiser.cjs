// DESIGN 16b: the layering of src/ (and of the passkeys Worker, workers/passkeys), checked by
// dependency-cruiser in `npm test`.
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
    {
      name: "passkeys-worker-stands-alone",
      comment: "The passkeys Worker (DESIGN 25) is deployed apart and holds no data: it imports nothing of the main Worker's src/.",
      severity: "error",
      from: { path: "^workers/passkeys/" },
      to: { path: "^src/" },
    },
    {
      name: "main-worker-calls-the-passkeys-worker",
      comment: "src/ reaches the passkeys Worker through its service binding PASSKEYS: it imports its types only, so none of its code (nor @simplewebauthn/server's) lands in the main bundle.",
      severity: "error",
      from: { path: "^src/" },
      to: { path: "^workers/", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "webauthn-only-in-the-passkeys-worker",
      comment: "@simplewebauthn/server runs in the passkeys Worker; src/ imports its types only.",
      severity: "error",
      from: { path: "^src/" },
      to: { path: "node_modules/@simplewebauthn/server/", dependencyTypesNot: ["type-only"] },
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
