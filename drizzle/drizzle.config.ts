import { defineConfig } from "drizzle-kit";

// Generation only: migrations are applied by wrangler (`wrangler d1 migrations apply`),
// which keeps the one ledger D1 knows about.
export default defineConfig({
  dialect: "sqlite",
  schema: ["./src/db/schema.ts", "./src/*/tables.ts"],
  out: "./drizzle",
});
