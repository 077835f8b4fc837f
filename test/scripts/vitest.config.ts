import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// The CLI scripts, driven as a person or CI drives them: Node processes, not Workers.
export default defineConfig({
  root: fileURLToPath(new URL("../..", import.meta.url)),
  test: { include: ["test/scripts/**/*.test.mjs"], environment: "node", testTimeout: 120_000 },
});
