import { Hono } from "hono";
import type { AppEnv } from "../env";
import { NotFoundError } from "../http/problem";
import { indexNowKeyOf } from "./settings";

/**
 * DESIGN 24a: IndexNow's key file, `/{key}.txt`, answers the key as text/plain, so that the
 * engines can check that whoever submits the site's addresses owns it. Only the configured key's
 * file exists; any other name (or IndexNow off) is the usual 404 problem.
 */
export const reachKeyFile = new Hono<AppEnv>().get("/:file{[A-Za-z0-9-]{8,128}\\.txt}", (c) => {
  const key = indexNowKeyOf(c.env);
  if (!key || c.req.param("file") !== `${key}.txt`) throw new NotFoundError();
  return c.text(key, 200, { "Cache-Control": "public, max-age=3600" });
});
