import { Hono } from "hono";
import { createKey, listKeys, revokeKey, rollKey, type KeySpaces } from "../../auth/service";
import { openTestSpace, testSpaceOf } from "../../employers/service";
import { NotFoundError } from "../../http/problem";
import { shardOf } from "../../shards/bindings";
import { callerOf, type ConsoleContext, type ConsoleEnv } from "../context";
import { adminOnly, langOf, page } from "../render";
import { KEYS_WORDS, KeysPage, type RollError } from "./page";

// DESIGN 25, 25a: API keys in the console, for admins. Keys are made as `npm run keys` makes them
// (src/auth); a new one is in this answer only. `{prefix}` names one of the employer's keys
// (another employer's: 404).

export const keysPages = new Hono<ConsoleEnv>();
keysPages.use("/employer/keys", adminOnly);
keysPages.use("/employer/keys/*", adminOnly);

/** Where the employer's keys are: its spaces (its test space only once it has one, or made now), its shard. */
async function placeOf(c: ConsoleContext, options: { openTestSpace?: boolean } = {}) {
  const { db, employerId } = callerOf(c);
  const test = options.openTestSpace ? await openTestSpace(db, employerId) : await testSpaceOf(db, employerId);
  const spaces: KeySpaces = { live: employerId, ...(test !== undefined && { test }) };
  return { kv: c.env.API_KEYS, db, spaces, shard: shardOf(c.env) };
}

/** What a prefix may be: a key's first 12 characters (base64url after `jpa_`). */
const PREFIX = /^jpa_[A-Za-z0-9_-]{8}$/;

type Place = Awaited<ReturnType<typeof placeOf>>;

async function keysPage(c: ConsoleContext, place: Place, shown: { newKey?: string; revoked?: string; rollError?: RollError } = {}) {
  const keys = await listKeys(place.db, place.spaces);
  const refused = shown.rollError;
  // The form again only for a key of the employer's: another's is a 404, whatever was typed.
  if (refused && !keys.some((key) => key.prefix === refused.prefix)) throw new NotFoundError();
  return page(c, KEYS_WORDS[langOf(c)].title, <KeysPage lang={langOf(c)} keys={keys} {...shown} />, refused ? 422 : 200);
}

keysPages.get("/employer/keys", async (c) => {
  const revoked = c.req.query("revoked");
  return keysPage(c, await placeOf(c), { revoked: revoked && PREFIX.test(revoked) ? revoked : undefined });
});

keysPages.post("/employer/keys", async (c) => {
  const test = (await c.req.parseBody()).test !== undefined;
  const place = await placeOf(c, { openTestSpace: test });
  return keysPage(c, place, { newKey: await createKey(place, test) });
});

keysPages.post("/employer/keys/:prefix/revoke", async (c) => {
  const prefix = c.req.param("prefix");
  if (!(await revokeKey(await placeOf(c), prefix))) throw new NotFoundError();
  return c.redirect(`/employer/keys?revoked=${prefix}`, 303);
});

keysPages.post("/employer/keys/:prefix/roll", async (c) => {
  const prefix = c.req.param("prefix");
  const { overlapHours } = await c.req.parseBody();
  const typed = typeof overlapHours === "string" ? overlapHours : "";
  const hours = /^\s*\d{1,2}\s*$/.test(typed) ? Number(typed) : NaN;
  const place = await placeOf(c);
  if (!(hours >= 0 && hours <= 24)) return keysPage(c, place, { rollError: { prefix, overlapHours: typed } });
  const rolled = await rollKey(place, prefix, hours);
  if (rolled === "not-found") throw new NotFoundError();
  if (rolled === "rolled-already") {
    const words = KEYS_WORDS[langOf(c)];
    return page(
      c,
      words.rolledAlreadyTitle,
      <>
        <p>{words.rolledAlready}</p>
        <p>
          <a href="/employer/keys">{words.back}</a>
        </p>
      </>,
      409,
    );
  }
  return keysPage(c, place, { newKey: rolled.apiKey });
});
