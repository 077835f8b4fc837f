import { OpenAPIHono } from "../http/openapi-hono";
import type { Context } from "hono";
import type { AppEnv } from "../env";
import { publicOrigin } from "../http/paging";
import { clientAddress, enforce } from "../http/middleware/rate-limit";
import { ProblemError } from "../http/problem";
import { validationHook } from "../http/validation";
import { alertSearchOfForm } from "./search-form";
import type { Lang } from "../ui/i18n";
import { senderOf } from "./consent";
import { createAlertsDatabase } from "./database/client";
import { atomFeed } from "./feed";
import { AlertForm, CheckMailboxPage, ConfirmedPage, ConfirmPage, DeclinedPage, DeclinePage, InvalidLinkPage, ManagePage, UnsubscribedPage, UnsubscribePage, ALERT_WORDS } from "./pages";
import { alertsOfAddress, keepAlert, recentMatches, searchOfRow, setFrequency, type AlertRow } from "./repository";
import { ALERT_FORM, ALERT_PAGES, CHECK_MAILBOX, createAlertRoute } from "./routes";
import { AlertInputSchema } from "./schemas";
import { nextScheduledAt, FREQUENCIES, WEEKDAYS, type Frequency, type Weekday } from "./schedule";
import { alertOfToken, confirmAlert, declineAlert, endAlert, linksOf, pauseAlert, searchWordsOf, subscribe, jobLinkOf, type Origin } from "./service";
import { withPageHeaders } from "../ui/headers";
import { Layout } from "../ui/layout";

// DESIGN 23, 23a: the alerts' HTTP side — the JSON API, the search pages' form, and the pages its
// links open. Thin: rules are in rules.ts and schedule.ts, work in service.ts.

const originOf = (c: Context<AppEnv>, source: Origin["source"], placeName?: string | null): Origin => ({
  source,
  origin: publicOrigin(c),
  clientAddress: clientAddress(c) === "unknown" ? null : clientAddress(c),
  userAgent: c.req.header("User-Agent") ?? null,
  placeName,
});

/** DESIGN 23: rate-limited per client address like the apply path (its limiter, a key of its own). */
const limitPerAddress = (c: Context<AppEnv>) => enforce(c.env.APPLY_RATE_LIMITER, `alerts:${clientAddress(c)}`);

/** The answers of alert pages: never cached, never framed; token pages are private: never indexed, and the token never leaves in a Referer. */
const pageHeaders = (c: Context<AppEnv>) => withPageHeaders(c, { private: true });

const here = (c: Context<AppEnv>) => {
  const url = `${publicOrigin(c)}${new URL(c.req.url).pathname}`;
  return { en: url, fr: url };
};

export const alertsApi = new OpenAPIHono<AppEnv>({ defaultHook: validationHook }).openapi(createAlertRoute, async (c) => {
  await limitPerAddress(c);
  await subscribe(c.env, c.req.valid("json"), originOf(c, "api"), Date.now());
  return c.json({ status: "pending" as const }, 202);
});

/** The search pages' form (DESIGN 23a): 303 to "check your mailbox"; a problem shows the form again, with each next to its field. */
async function subscribeOnPage(c: Context<AppEnv>, lang: Lang) {
  pageHeaders(c);
  await limitPerAddress(c);
  const form = Object.fromEntries(Object.entries(await c.req.parseBody()).flatMap(([name, value]) => (typeof value === "string" ? [[name, value.slice(0, 300)]] : [])));
  const { search, placeName, errors: searchErrors } = await alertSearchOfForm(c.env, lang, form);
  const words = ALERT_WORDS[lang];
  const input = {
    email: form.email ?? "",
    language: lang,
    frequency: FREQUENCIES.includes(form.frequency as Frequency) ? form.frequency : "daily",
    consent: form.consent === "yes" ? true : false,
    search,
  };
  const parsed = AlertInputSchema.safeParse(input);
  const errors: Partial<Record<"email" | "consent" | "search", string>> = {};
  if (searchErrors) errors.search = searchErrors;
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] === "email" ? "email" : issue.path[0] === "consent" ? "consent" : "search";
      errors[field] ??= field === "email" ? (lang === "fr" ? "Entrez une adresse courriel valide." : "Enter a valid email address.") : field === "consent" ? (lang === "fr" ? "Cochez la case pour accepter les courriels." : "Check the box to agree to the emails.") : issue.message;
    }
  }
  if (parsed.success && !searchErrors) {
    try {
      await subscribe(c.env, parsed.data, originOf(c, "page", placeName), Date.now());
      return c.redirect(`${publicOrigin(c)}${CHECK_MAILBOX[lang]}`, 303);
    } catch (error) {
      if (!(error instanceof ProblemError)) throw error;
      errors.search = error.extra.errors?.map((e) => e.message).join(" ") ?? error.detail;
    }
  }
  const { email: _email, consent: _consent, frequency: _frequency, ...searchFields } = form;
  return c.html(
    <Layout lang={lang} title={words.formTitle} description={words.formTitle} addresses={{ en: `${publicOrigin(c)}${ALERT_FORM.en}`, fr: `${publicOrigin(c)}${ALERT_FORM.fr}` }}>
      <AlertForm lang={lang} action={ALERT_FORM[lang]} search={searchFields} sender={senderOf(c.env)} errors={errors} email={form.email} standalone />
    </Layout>,
    400,
  );
}

/** A token page: the alert its token names, or the "link does not work" page (never an error page). */
async function withAlert(c: Context<AppEnv>, purpose: "confirm" | "manage", work: (alert: AlertRow) => Promise<Response> | Response) {
  pageHeaders(c);
  const alert = await alertOfToken(c.env, purpose, c.req.param("token") ?? "");
  if (!alert) return c.html(<InvalidLinkPage lang="en" addresses={here(c)} />, 404);
  return work(alert);
}

const confirmPage = (c: Context<AppEnv>) =>
  withAlert(c, "confirm", async (alert) => {
    if (c.req.method === "POST") await confirmAlert(c.env, alert, Date.now());
    if (c.req.method === "POST" || alert.status === "active" || alert.status === "paused") return c.html(<ConfirmedPage lang={alert.language} addresses={here(c)} />);
    if (alert.status === "ended") return c.html(<UnsubscribedPage lang={alert.language} addresses={here(c)} all={false} />);
    return c.html(<ConfirmPage lang={alert.language} addresses={here(c)} search={searchWordsOf(alert)} action={new URL(c.req.url).pathname} />);
  });

/**
 * "This was not me" (the confirmation email's second link, with the confirm token): a GET shows
 * the button and changes nothing; its POST deletes a pending alert (an alert confirmed since ends,
 * as an unsubscribe). Once deleted, the link answers "this link does not work", like any unknown token.
 */
const declinePage = (c: Context<AppEnv>) =>
  withAlert(c, "confirm", async (alert) => {
    if (c.req.method === "POST") {
      const outcome = await declineAlert(c.env, alert, Date.now());
      if (outcome === "deleted") return c.html(<DeclinedPage lang={alert.language} addresses={here(c)} />);
      return c.html(<UnsubscribedPage lang={alert.language} addresses={here(c)} all={false} />);
    }
    if (alert.status === "ended") return c.html(<UnsubscribedPage lang={alert.language} addresses={here(c)} all={false} />);
    return c.html(<DeclinePage lang={alert.language} addresses={here(c)} search={searchWordsOf(alert)} action={new URL(c.req.url).pathname} />);
  });

/**
 * RFC 8058: a POST (the mail client's one-click `List-Unsubscribe=One-Click`, or the page's
 * button) ends the alert at once and answers 200, no redirect, no cookie; `scope=all` ends every
 * alert of the address. A GET shows the buttons. An ended alert's link says "unsubscribed".
 */
const unsubscribePage = (c: Context<AppEnv>) =>
  withAlert(c, "manage", async (alert) => {
    if (c.req.method === "POST") {
      const body = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
      const all = body.scope === "all";
      await endAlert(c.env, alert, all, "unsubscribed", Date.now());
      return c.html(<UnsubscribedPage lang={alert.language} addresses={here(c)} all={all} />, 200);
    }
    if (alert.status === "ended") return c.html(<UnsubscribedPage lang={alert.language} addresses={here(c)} all={false} />);
    return c.html(<UnsubscribePage lang={alert.language} addresses={here(c)} search={searchWordsOf(alert)} action={new URL(c.req.url).pathname} />);
  });

/** The manage page: every kept alert of the token's address; its forms change one alert (of that address only) or all. */
const managePage = (c: Context<AppEnv>) =>
  withAlert(c, "manage", async (alert) => {
    const db = createAlertsDatabase(c.env.ALERTS_DB);
    if (c.req.method === "POST") {
      const body = (await c.req.parseBody()) as Record<string, string | undefined>;
      const now = Date.now();
      const mine = await alertsOfAddress(db, alert.emailKey);
      const target = mine.find((candidate) => String(candidate.id) === body.alert);
      if (body.action === "delete-all") await endAlert(c.env, alert, true, "deleted", now);
      else if (target && body.action === "keep") await keepAlert(db, target.id, now);
      else if (target && body.action === "delete") await endAlert(c.env, target, false, "deleted", now);
      else if (target && (body.action === "pause" || body.action === "resume")) await pauseAlert(c.env, target, body.action === "pause", now);
      else if (target && body.action === "schedule") {
        const frequency = FREQUENCIES.includes(body.frequency as Frequency) ? (body.frequency as Frequency) : target.frequency;
        const hour = /^([0-9]|1[0-9]|2[0-3])$/.test(body.hour ?? "") ? Number(body.hour) : target.hour;
        const weekday = WEEKDAYS.includes(body.weekday as Weekday) ? (body.weekday as Weekday) : target.weekday;
        await setFrequency(db, target.id, { frequency, hour, weekday }, now, nextScheduledAt({ frequency, hour, weekday, timeZone: target.timeZone }, now));
      }
      // Post/redirect/get: a reload does not send the form again.
      return c.redirect(new URL(c.req.url).pathname, 303);
    }
    const alerts = await Promise.all(
      (await alertsOfAddress(db, alert.emailKey)).map(async (row) => ({
        id: row.id,
        search: searchWordsOf(row),
        frequency: row.frequency,
        hour: row.hour,
        weekday: row.weekday,
        paused: row.status === "paused",
        askedToKeep: row.keepAskedAt !== null,
        feed: (await linksOf(c.env, row)).feed,
      })),
    );
    return c.html(<ManagePage lang={alert.language} addresses={here(c)} alerts={alerts} action={new URL(c.req.url).pathname} />);
  });

/** DESIGN 23: each alert's private Atom feed of its matches (its address holds a token). */
async function feedOf(c: Context<AppEnv>) {
  const alert = await alertOfToken(c.env, "feed", c.req.param("token") ?? "");
  c.header("Cache-Control", "no-store");
  c.header("X-Robots-Tag", "noindex");
  if (!alert) return c.text("No feed at this address.", 404);
  const matches = await recentMatches(createAlertsDatabase(c.env.ALERTS_DB), alert.id, 50);
  const self = `${publicOrigin(c)}${new URL(c.req.url).pathname}`;
  return c.body(atomFeed({ alert, self, search: searchWordsOf(alert), matches, jobLink: jobLinkOf(alert), searchRow: searchOfRow(alert) }), 200, { "Content-Type": "application/atom+xml; charset=utf-8" });
}

const withLang = (lang: Lang) => (c: Context<AppEnv>) => {
  pageHeaders(c);
  return c.html(<CheckMailboxPage lang={lang} addresses={{ en: `${publicOrigin(c)}${CHECK_MAILBOX.en}`, fr: `${publicOrigin(c)}${CHECK_MAILBOX.fr}` }} />);
};

export const alertPages = new OpenAPIHono<AppEnv>()
  .post(ALERT_FORM.en, (c) => subscribeOnPage(c, "en"))
  .post(ALERT_FORM.fr, (c) => subscribeOnPage(c, "fr"))
  .get(CHECK_MAILBOX.en, withLang("en"))
  .get(CHECK_MAILBOX.fr, withLang("fr"))
  .on(["GET", "POST"], `${ALERT_PAGES.confirm}/:token`, confirmPage)
  .on(["GET", "POST"], `${ALERT_PAGES.decline}/:token`, declinePage)
  .on(["GET", "POST"], `${ALERT_PAGES.unsubscribe}/:token`, unsubscribePage)
  .on(["GET", "POST"], `${ALERT_PAGES.manage}/:token`, managePage)
  .get(`${ALERT_PAGES.feed}/:token`, feedOf);
