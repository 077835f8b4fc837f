import { Hono } from "hono";
import { clientAddress, enforce } from "../http/middleware/rate-limit";
import { acceptInvitation, employerName, openInvitation, openSignInLink, rememberLanguage, requestSignIn, signInWithLink } from "../accounts/service";
import { endSessions, setSessionCookie } from "../accounts/session";
import { addressOf, publicOrigin, requestLang, safeNext, switchOf, type ConsoleEnv } from "./context";
import { employerChoicePages, EMPLOYERS_PATH } from "./sign-in-employers";
import { ButtonPage, CONSOLE_WORDS, GonePage, SentPage, SignInPage } from "./sign-in-pages";

// DESIGN 25, 25a: signing in and out — the sign-in form and its emailed link, invitations, the
// person's language. A token's GET shows a button and changes nothing; only its POST uses it.

export const EMAIL = /^[^\s@<>()",;:\\[\]]+@[^\s@<>()",;:\\[\]]+\.[^\s@<>()",;:\\[\]]+$/;

/** The pages that answer without a session. */
export const PUBLIC_PAGES = /^\/employer\/(sign-in(\/[^/]+|\/passkey\/options)?|invitations\/[^/]+)$/;

export const signInPages = new Hono<ConsoleEnv>();

signInPages.route("/", employerChoicePages);

/** DESIGN 25a: the person's language (field `language`: en | fr), remembered. */
signInPages.post("/employer/language", async (c) => {
  const { language } = await c.req.parseBody();
  if (language !== "en" && language !== "fr") return c.text("language must be en or fr", 422);
  await rememberLanguage(c.env, c.get("person").personId, language);
  return c.redirect("/employer", 303);
});

signInPages.post("/employer/sign-out", async (c) => {
  await endSessions(c, c.req.query("everywhere") !== undefined);
  return c.redirect(`/employer/sign-in?lang=${c.get("person").language}`, 303);
});

signInPages.get("/employer/sign-in", (c) => {
  const lang = requestLang(c);
  if (c.req.query("sent") !== undefined) return c.html(<SentPage lang={lang} address={addressOf(c)} switchTo={switchOf(c, lang)} />);
  return c.html(<SignInPage lang={lang} address={addressOf(c)} switchTo={switchOf(c, lang)} next={safeNext(c.req.query("next"))} />);
});

signInPages.post("/employer/sign-in", async (c) => {
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

signInPages.get("/employer/sign-in/:token", async (c) => {
  const lang = requestLang(c);
  const words = CONSOLE_WORDS[lang];
  if (!(await openSignInLink(c.env, c.req.param("token")))) {
    return c.html(<GonePage lang={lang} address={addressOf(c)} title={words.linkGoneTitle} text={words.linkGone} askAgain />, 410);
  }
  const url = new URL(c.req.url);
  return c.html(<ButtonPage lang={lang} address={addressOf(c)} title={words.linkTitle} text={words.linkAsk} button={words.linkButton} action={url.pathname + url.search} />);
});

signInPages.post("/employer/sign-in/:token", async (c) => {
  const signedIn = await signInWithLink(c.env, c.req.param("token"));
  if (!signedIn) {
    const lang = requestLang(c);
    const words = CONSOLE_WORDS[lang];
    return c.html(<GonePage lang={lang} address={addressOf(c)} title={words.linkGoneTitle} text={words.linkGone} askAgain />, 410);
  }
  setSessionCookie(c, signedIn.cookie);
  const next = safeNext(c.req.query("next"));
  // An address of several employers chooses one first (DESIGN 25), then goes on to `next`.
  if (signedIn.employers > 1) return c.redirect(next ? `${EMPLOYERS_PATH}?next=${encodeURIComponent(next)}` : EMPLOYERS_PATH, 303);
  return c.redirect(next ?? "/employer", 303);
});

signInPages.get("/employer/invitations/:token", async (c) => {
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

signInPages.post("/employer/invitations/:token", async (c) => {
  const lang = requestLang(c);
  const cookie = await acceptInvitation(c.env, c.req.param("token"), lang);
  if (!cookie) {
    const words = CONSOLE_WORDS[lang];
    return c.html(<GonePage lang={lang} address={addressOf(c)} title={words.inviteGoneTitle} text={words.inviteGone} />, 410);
  }
  setSessionCookie(c, cookie);
  return c.redirect("/employer", 303);
});
