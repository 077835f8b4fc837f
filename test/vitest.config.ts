import { fileURLToPath } from "node:url";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { configDefaults, defineConfig } from "vitest/config";

const root = fileURLToPath(new URL("..", import.meta.url));

export default defineConfig(async () => {
  // Read on the Node side; test/support/apply-migrations.ts applies them inside workerd.
  const migrations = await readD1Migrations(`${root}drizzle`);
  return {
    root,
    plugins: [
      cloudflareTest({
        wrangler: { configPath: `${root}wrangler.toml` },
        miniflare: { bindings: { TEST_MIGRATIONS: migrations } },
      }),
    ],
    test: {
      include: ["test/**/*.test.ts"],
      // The XSS corpus needs data from outside the project: `npm run test:xss-corpus`.
      exclude: [...configDefaults.exclude, "test/corpus/**"],
      setupFiles: ["test/support/apply-migrations.ts"],
    },
  };
});
