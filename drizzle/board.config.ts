import { defineConfig } from "drizzle-kit";

// The board's own database (BOARD_DB, DESIGN 17): generation only, like drizzle.config.ts;
// wrangler applies the migrations (`wrangler d1 migrations apply BOARD_DB`).
export default defineConfig({
  dialect: "sqlite",
  schema: ["./src/board/database/tables.ts"],
  out: "./drizzle/board",
});
