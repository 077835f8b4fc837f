import { defineConfig } from "drizzle-kit";

// Job alerts' own database (ALERTS_DB, DESIGN 23): generation only, like drizzle.config.ts;
// wrangler applies the migrations (`wrangler d1 migrations apply ALERTS_DB`).
export default defineConfig({
  dialect: "sqlite",
  schema: ["./src/alerts/database/tables.ts"],
  out: "./drizzle/alerts",
});
