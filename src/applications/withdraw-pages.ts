import { Hono, type Context } from "hono";
import type { AppEnv } from "../env";
import { dispatchAfterResponse } from "../events/dispatch";
import { clientAddress, enforce } from "../http/middleware/rate-limit";
import { withPageHeaders } from "../ui/headers";
import { WITHDRAW_PATH, withdrawable, withdrawByLink } from "./withdraw";

// DESIGN 20: the applicant's withdraw link. GET shows a page asking to confirm; its form POSTs to
// the same address with no fields; the POST withdraws (status withdrawn, résumé deleted, link used
// up). A used, expired or unknown link answers a 404 page. Plain HTML, no script, in the language
// the applicant applied in.

type Language = "en" | "fr";

const TEXT = {
  en: {
    title: "Withdraw your application",
    ask: (name: string) => `${name}, do you want to withdraw your application? The employer will no longer consider it, and your résumé will be deleted at once.`,
    button: "Withdraw my application",
    doneTitle: "Application withdrawn",
    done: "Your application is withdrawn and your résumé deleted. You can close this page.",
  },
  fr: {
    title: "Retirer votre candidature",
    ask: (name: string) => `${name}, voulez-vous retirer votre candidature? L'employeur ne la considérera plus, et votre CV sera supprimé immédiatement.`,
    button: "Retirer ma candidature",
    doneTitle: "Candidature retirée",
    done: "Votre candidature est retirée et votre CV supprimé. Vous pouvez fermer cette page.",
  },
} as const;

const NOT_FOUND = {
  title: "Link not valid — Lien non valide",
  body: [
    "This withdraw link is not valid: it was already used, it expired (links work for 180 days), the application is closed, or the address is wrong.",
    "Ce lien de retrait n'est pas valide : il a déjà servi, il a expiré (les liens sont valides 180 jours), la candidature est close, ou l'adresse est erronée.",
  ],
};

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

function page(c: Context<AppEnv>, status: 200 | 404, language: Language | "en-fr", title: string, body: string) {
  // The token is in the address: no referrer leaves the page, nothing caches or indexes it, nothing
  // frames it (the UI layer's private page headers); a bare page, without the site's stylesheet.
  withPageHeaders(c, { private: true, assets: false });
  const lang = language === "en-fr" ? "en" : language;
  return c.html(
    `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
      `<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title></head><body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`,
    status,
  );
}

const notFound = (c: Context<AppEnv>) =>
  page(c, 404, "en-fr", NOT_FOUND.title, NOT_FOUND.body.map((text, i) => `<p${i === 1 ? ' lang="fr"' : ""}>${escapeHtml(text)}</p>`).join(""));

export const withdrawPages = new Hono<AppEnv>()
  // Public and reading D1: as the apply path, at most 10 a minute per address.
  .use(`${WITHDRAW_PATH}/:token`, async (c, next) => {
    await enforce(c.env.APPLY_RATE_LIMITER, `withdraw:${clientAddress(c)}`);
    await next();
  })
  .get(`${WITHDRAW_PATH}/:token`, async (c) => {
    const application = await withdrawable(c.var.db, c.req.param("token"));
    if (!application) return notFound(c);
    const words = TEXT[application.language];
    return page(
      c,
      200,
      application.language,
      words.title,
      `<p>${escapeHtml(words.ask(application.name))}</p><form method="post"><button type="submit">${escapeHtml(words.button)}</button></form>`,
    );
  })
  .post(`${WITHDRAW_PATH}/:token`, async (c) => {
    const moved = await withdrawByLink(c.env, c.var.db, c.req.param("token"));
    if (!moved) return notFound(c);
    dispatchAfterResponse(c, moved.events);
    const words = TEXT[moved.row.language];
    return page(c, 200, moved.row.language, words.doneTitle, `<p>${escapeHtml(words.done)}</p>`);
  });
