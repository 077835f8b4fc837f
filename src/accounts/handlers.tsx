import { Hono, type Context } from "hono";
import { csrf } from "hono/csrf";
import { clientAddress, enforce } from "../http/middleware/rate-limit";
import type { Lang } from "../ui/i18n";
import { pageHeaders } from "../ui/headers";
import { ButtonPage, CONSOLE_WORDS, GonePage, HomePage, SentPage, SignInPage } from "./pages";
import { acceptInvitation, employerName, openInvitation, openSignInLink, rememberLanguage, requestSignIn, signInWithLink } from "./service";
import { endSessions, requireSession, setSessionCookie, type ConsoleEnv } from "./session";

// DESIGN 25, 25a: the employer console's pages of this slice, under /employer. Every answer is
// private (no-store, never indexed, no Referer), has a CSP without inline script and never framed;
// every POST's Origin must be the console's own (hono/csrf); every page but sign-in and
// invitations needs a session (src/accounts/session.ts).

const PUBLIC = /^\/employer\/(sign-in(\/[^/]+)?|invitations\/[^/]+)$/;
const EMAIL = /^[^\s@<>()",;:\\[\]]+@[^\s@<>()",;:\\[\]]+\.[^\s@<>()",;:\\[\]]+$/;

/** Before sign-in: a `lang` query parameter (or form field), else Accept-Language. */
function requestLang(c: Context<ConsoleEnv>, given?: unknown): Lang {
  const asked = given ?? c.req.query("lang");
  if (asked === "fr" || asked === "en") return asked;
  const accept = c.req.header("Accept-Language") ?? "";
  const first = accept.split(",").map((part) => part.trim().toLowerCase())[0] ?? "";
  return first.startsWith("fr") ? "fr" : "en";
}

/** `next` when it is a console path of this origin, else the home page. */
function safeNext(next: unknown): string | undefined {
  return typeof next === "string" && /^\/employer(\/|\?|$)/.test(next) && !/[\\\s]/.test(next) ? next : undefined;
}

/** The public origin, as src/http/paging.ts's publicOrigin finds it: BASE_URL, else the request's. */
const publicOrigin = (c: Context<ConsoleEnv>) => c.env.BASE_URL?.replace(/\/+$/, "") || new URL(c.req.url).origin;
const addressOf = (c: Context<ConsoleEnv>) => `${publicOrigin(c)}${c.req.path}`;
const switchOf = (c: Context<ConsoleEnv>, lang: Lang) => {
  const url = new URL(c.req.url);
  url.searchParams.set("lang", lang === "en" ? "fr" : "en");
  return `${url.pathname}?${url.searchParams}`;
};
const isOwnOrigin = (origin: string, c: Context<ConsoleEnv>) => origin === new URL(c.req.url).origin || origin === publicOrigin(c);

export const consolePages = new Hono<ConsoleEnv>();

// After the answer is made, so that every one has them — redirects, 403s and errors included.
consolePages.use("/employer/*", async (c, next) => {
  await next();
  for (const [name, value] of Object.entries(pageHeaders({ private: true }))) c.res.headers.set(name, value);
});
consolePages.use("/employer/*", csrf({ origin: isOwnOrigin }), async (c, next) => {
  // A POST of no form type (which hono/csrf lets by) still needs our own Origin when it names one.
  const origin = c.req.header("Origin");
  if (c.req.method === "POST" && origin !== undefined && !isOwnOrigin(origin, c)) return c.text("Forbidden", 403);
  await next();
});
consolePages.use("/employer/*", (c, next) => (PUBLIC.test(c.req.path) ? next() : requireSession(c, next)));

consolePages.get("/employer", async (c) => {
  const person = c.get("person");
  const employer = (await employerName(c.env, person.employerId)) ?? `#${person.employerId}`;
  return c.html(<HomePage lang={person.language} address={addressOf(c)} employer={employer} email={person.email} role={person.role} />);
});

/** DESIGN 25a: the person's language (field `language`: en | fr), remembered. */
consolePages.post("/employer/language", async (c) => {
  const { language } = await c.req.parseBody();
  if (language !== "en" && language !== "fr") return c.text("language must be en or fr", 422);
  await rememberLanguage(c.env, c.get("person").personId, language);
  return c.redirect("/employer", 303);
});

consolePages.post("/employer/sign-out", async (c) => {
  await endSessions(c, c.req.query("everywhere") !== undefined);
  return c.redirect(`/employer/sign-in?lang=${c.get("person").language}`, 303);
});

consolePages.get("/employer/sign-in", (c) => {
  const lang = requestLang(c);
  if (c.req.query("sent") !== undefined) return c.html(<SentPage lang={lang} address={addressOf(c)} switchTo={switchOf(c, lang)} />);
  return c.html(<SignInPage lang={lang} address={addressOf(c)} switchTo={switchOf(c, lang)} next={safeNext(c.req.query("next"))} />);
});

consolePages.post("/employer/sign-in", async (c) => {
  const form = await c.req.parseBody();
  const lang = requestLang(c, form.lang);
  const email = typeof form.email === "string" ? form.email.trim() : "";
  if (email.length > 254 || !EMAIL.test(email)) {
    return c.html(<SignInPage lang={lang} address={addressOf(c)} switchTo={switchOf(c, lang)} next={safeNext(form.next)} email={email} error={CONSOLE_WORDS[lang].emailInvalid} />, 422);
  }
  // The apply path's per-client limit (DESIGN 25), a key of its own.
  await enforce(c.env.APPLY_RATE_LIMITER, `console-sign-in:${clientAddress(c)}`);
  const send = await requestSignIn(c.env, { email, origin: publicOrigin(c), next: safeNext(form.next) });
  // Sent after the answer: the answer is the same, and as quick, whether the address is known or not.
  if (send) c.executionCtx.waitUntil(send());
  return c.redirect(`/employer/sign-in?sent&lang=${lang}`, 303);
});

consolePages.get("/employer/sign-in/:token", async (c) => {
  const lang = requestLang(c);
  const words = CONSOLE_WORDS[lang];
  if (!(await openSignInLink(c.env, c.req.param("token")))) {
    return c.html(<GonePage lang={lang} address={addressOf(c)} title={words.linkGoneTitle} text={words.linkGone} askAgain />, 410);
  }
  const url = new URL(c.req.url);
  return c.html(<ButtonPage lang={lang} address={addressOf(c)} title={words.linkTitle} text={words.linkAsk} button={words.linkButton} action={url.pathname + url.search} />);
});

consolePages.post("/employer/sign-in/:token", async (c) => {
  const cookie = await signInWithLink(c.env, c.req.param("token"));
  if (!cookie) {
    const lang = requestLang(c);
    const words = CONSOLE_WORDS[lang];
    return c.html(<GonePage lang={lang} address={addressOf(c)} title={words.linkGoneTitle} text={words.linkGone} askAgain />, 410);
  }
  setSessionCookie(c, cookie);
  return c.redirect(safeNext(c.req.query("next")) ?? "/employer", 303);
});

consolePages.get("/employer/invitations/:token", async (c) => {
  const lang = requestLang(c);
  const words = CONSOLE_WORDS[lang];
  const invitation = await openInvitation(c.env, c.req.param("token"));
  if (!invitation) return c.html(<GonePage lang={lang} address={addressOf(c)} title={words.inviteGoneTitle} text={words.inviteGone} />, 410);
  const employer = (await employerName(c.env, invitation.employerId)) ?? `#${invitation.employerId}`;
  const url = new URL(c.req.url);
  return c.html(
    <ButtonPage lang={lang} address={addressOf(c)} title={words.inviteTitle} text={words.invite(employer, words.roles[invitation.role])} button={words.inviteButton} action={url.pathname + url.search} />,
  );
});

consolePages.post("/employer/invitations/:token", async (c) => {
  const lang = requestLang(c);
  const cookie = await acceptInvitation(c.env, c.req.param("token"), lang);
  if (!cookie) {
    const words = CONSOLE_WORDS[lang];
    return c.html(<GonePage lang={lang} address={addressOf(c)} title={words.inviteGoneTitle} text={words.inviteGone} />, 410);
  }
  setSessionCookie(c, cookie);
  return c.redirect("/employer", 303);
});
