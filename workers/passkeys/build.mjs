// The passkeys Worker as the workerd tests run it (test/vitest.config.ts: an auxiliary Worker of
// miniflare, which takes JavaScript only): bundled by the esbuild wrangler bundles it with, for
// workerd's export conditions, as `wrangler deploy` and `wrangler dev` bundle it from its config.
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));
export const PASSKEYS_CONFIG = `${here}wrangler.toml`;

const requireFromWrangler = createRequire(createRequire(import.meta.url).resolve("wrangler/package.json"));

/** Bundles the Worker into `outfile`; its name and compatibility date as its wrangler.toml says, for miniflare. */
export async function buildPasskeysWorker(outfile) {
  const { unstable_readConfig } = await import("wrangler");
  const config = unstable_readConfig({ config: PASSKEYS_CONFIG });
  await requireFromWrangler("esbuild").build({
    entryPoints: [config.main],
    outfile,
    bundle: true,
    format: "esm",
    platform: "neutral",
    target: "es2024",
    conditions: ["workerd", "worker", "browser"],
    mainFields: ["browser", "module", "main"],
    external: ["cloudflare:*", "node:*"],
    logLevel: "error",
  });
  return { name: config.name, compatibilityDate: config.compatibility_date, scriptPath: outfile };
}
