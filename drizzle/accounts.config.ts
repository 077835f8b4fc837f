import { defineConfig } from "drizzle-kit";

// The employer console's own database (ACCOUNTS_DB, DESIGN 25): generation only, like
// drizzle.config.ts; wrangler applies the migrations (`wrangler d1 migrations apply ACCOUNTS_DB`).
export default defineConfig({
  dialect: "sqlite",
  schema: ["./src/accounts/database/tables.ts"],
  out: "./drizzle/accounts",
});
