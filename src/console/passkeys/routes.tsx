import { Hono } from "hono";
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import { addPasskey, authenticationOptions, listPasskeys, registrationOptions, removePasskey, signInWithPasskey, type RelyingParty } from "../../accounts/passkeys";
import { setSessionCookie } from "../../accounts/session";
import { handleError } from "../../http/errors";
import { clientAddress, enforce } from "../../http/middleware/rate-limit";
import { BadRequestError, NotFoundError, UnsupportedMediaTypeError, ValidationError } from "../../http/problem";
import { ASSET_HEADERS } from "../../ui/assets";
import { publicOrigin, safeNext, type ConsoleContext, type ConsoleEnv } from "../context";
import { langOf, page } from "../render";
import { PASSKEYS_SCRIPT, PASSKEYS_SCRIPT_PATH } from "./browser-script";
import { NAME_MAX, PASSKEY_WORDS, PasskeysBody } from "./pages";

// DESIGN 25, 25a: passkeys in the console. The page lists the person's passkeys and removes them
// (forms); adding one and signing in with one are JSON exchanges the page's script makes with the
// browser's WebAuthn (options, then the browser's answer). Those answer problem+json, never a
// page. Every POST carries the console's Origin (src/console/app.ts refuses any other).

/** The pages that load the passkey script: their CSP allows the console's own script files. */
export const loadsPasskeysScript = (path: string) => path === "/employer/passkeys" || path === "/employer/sign-in";

/** DESIGN 25a: the relying party's id is the request's host name; its pages are this origin's (or BASE_URL's). */
function relyingParty(c: ConsoleContext): RelyingParty {
  const own = new URL(c.req.url);
  return { id: own.hostname, name: c.env.BOARD_NAME || "Job board", origins: [...new Set([own.origin, publicOrigin(c)])] };
}

/** The JSON body's members: an object, or a 400/415 problem. */
async function jsonBody(c: ConsoleContext): Promise<Record<string, unknown>> {
  const type = c.req.header("Content-Type");
  if (!/^application\/json\s*(;|$)/i.test(type ?? "")) throw new UnsupportedMediaTypeError(type);
  const body: unknown = await c.req.json().catch(() => undefined);
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw new BadRequestError("The request body must be a JSON object.");
  return body as Record<string, unknown>;
}

/** The browser's credential (`credential`): an object; WebAuthn's verification checks the rest. */
function credentialOf<T>(body: Record<string, unknown>): T {
  const { credential } = body;
  if (typeof credential !== "object" || credential === null || Array.isArray(credential)) throw new ValidationError([{ field: "credential", message: "Send the browser's credential as an object." }]);
  return credential as T;
}

const exchanges = new Hono<ConsoleEnv>();
exchanges.onError(handleError);

// Every exchange is a JSON POST, even with nothing to say: no cross-site form can send one.
exchanges.post("/employer/passkeys/options", async (c) => {
  await jsonBody(c);
  const person = c.get("person");
  return c.json(await registrationOptions(c.env, person, relyingParty(c)));
});

exchanges.post("/employer/passkeys", async (c) => {
  const body = await jsonBody(c);
  const name = typeof body.name === "string" ? body.name.trim() : "";
  if (name.length > NAME_MAX) throw new ValidationError([{ field: "name", message: `A passkey's name has at most ${NAME_MAX} characters.` }]);
  const person = c.get("person");
  await addPasskey(c.env, person.personId, relyingParty(c), { credential: credentialOf<RegistrationResponseJSON>(body), name: name || PASSKEY_WORDS[langOf(c)].defaultName });
  return c.json({ next: "/employer/passkeys?added" }, 201);
});

/** The per-client limit of the sign-in form (DESIGN 25), a key of its own: both steps of a sign-in count. */
const limitSignIns = (c: ConsoleContext) => enforce(c.env.APPLY_RATE_LIMITER, `console-passkey:${clientAddress(c)}`);

exchanges.post("/employer/sign-in/passkey/options", async (c) => {
  await jsonBody(c);
  await limitSignIns(c);
  return c.json(await authenticationOptions(c.env, relyingParty(c)));
});

exchanges.post("/employer/sign-in/passkey", async (c) => {
  const body = await jsonBody(c);
  await limitSignIns(c);
  const cookie = await signInWithPasskey(c.env, relyingParty(c), credentialOf<AuthenticationResponseJSON>(body));
  setSessionCookie(c, cookie);
  return c.json({ next: safeNext(body.next) ?? "/employer" });
});

export const passkeyPages = new Hono<ConsoleEnv>().route("/", exchanges);

// Outside /employer: a file like the stylesheet, the same for everyone, kept a year.
passkeyPages.get(PASSKEYS_SCRIPT_PATH, (c) => c.body(PASSKEYS_SCRIPT, 200, { "Content-Type": "text/javascript; charset=utf-8", ...ASSET_HEADERS }));

passkeyPages.get("/employer/passkeys", async (c) => {
  const lang = langOf(c);
  const notice = c.req.query("added") !== undefined ? "added" : c.req.query("removed") !== undefined ? "removed" : undefined;
  const passkeys = await listPasskeys(c.env, c.get("person").personId);
  return page(c, PASSKEY_WORDS[lang].title, <PasskeysBody lang={lang} passkeys={passkeys} notice={notice} />);
});

passkeyPages.post("/employer/passkeys/:id/remove", async (c) => {
  const id = c.req.param("id");
  // Another person's passkey, or none: 404, as another employer's job is.
  if (!/^[1-9][0-9]{0,15}$/.test(id) || !(await removePasskey(c.env, c.get("person").personId, Number(id)))) throw new NotFoundError();
  return c.redirect("/employer/passkeys?removed", 303);
});
