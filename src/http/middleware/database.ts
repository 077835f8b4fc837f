import { createMiddleware } from "hono/factory";
import { createDatabase } from "../../db/client";
import type { AppEnv } from "../../env";

/** One Drizzle instance per request, so repositories never reach for globals. */
export const database = createMiddleware<AppEnv>(async (c, next) => {
  c.set("db", createDatabase(c.env.DB));
  await next();
});
