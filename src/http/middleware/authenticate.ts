import { createMiddleware } from "hono/factory";
import { findApiKey } from "../../auth/api-keys";
import type { AppEnv } from "../../env";
import { UnauthorizedError } from "../problem";
import { countFailedAuthentication } from "./rate-limit";

// Real keys are short; anything longer is rejected before hashing.
const MAX_API_KEY_LENGTH = 256;

/** Spec 5: every job operation needs a valid `API-Key`; the employer it names owns the request. */
export const authenticate = createMiddleware<AppEnv>(async (c, next) => {
  const apiKey = c.req.header("API-Key")?.trim();
  if (!apiKey) {
    await countFailedAuthentication(c);
    throw new UnauthorizedError("Send your API key in the API-Key header.");
  }
  const record = apiKey.length <= MAX_API_KEY_LENGTH ? await findApiKey(c.env.API_KEYS, apiKey) : null;
  if (!record) {
    await countFailedAuthentication(c);
    throw new UnauthorizedError("The API key is not valid.");
  }
  c.set("employerId", record.employerId);
  await next();
});
