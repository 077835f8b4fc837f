import { Hono, type Context } from "hono";
import type { AppEnv } from "../env";
import { boardResponses } from "../board/cache";
import { boardJobForPage } from "../board/pages";
import { publicOrigin } from "../http/paging";
import type { Lang } from "./i18n";
import { JobPage, MissingJobPage } from "./job-page";
import { jobPath, parseJobAddress, slugOf } from "./paths";
import { STYLESHEET, STYLESHEET_PATH } from "./style";

// DESIGN 18: the board as web pages, server-rendered from the board's own database through its
// public functions. Every page works without JavaScript; none runs any.

/** Pages carry no script of their own: the JSON-LD block is data, not run. */
const PAGE_HEADERS = {
  "Content-Security-Policy": "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "X-Frame-Options": "DENY",
};

const nowSeconds = () => Math.floor(Date.now() / 1000);

async function jobPageOf(c: Context<AppEnv>, lang: Lang) {
  for (const [name, value] of Object.entries(PAGE_HEADERS)) c.header(name, value);
  const segment = c.req.param("segment") ?? "";
  const address = parseJobAddress(segment);
  const origin = publicOrigin(c);
  const found = address ? await boardJobForPage(c.env, address.id, nowSeconds()) : ({ state: "unknown" } as const);
  if (found.state !== "open" || !address) {
    const here = { en: `${origin}/jobs/${segment}`, fr: `${origin}/fr/emplois/${segment}` };
    return c.html(<MissingJobPage lang={lang} gone={found.state === "gone"} addresses={here} />, found.state === "gone" ? 410 : 404);
  }
  const { job } = found;
  const titles: Record<Lang, string | null> = { en: job.title, fr: job.translations?.fr.title ?? job.title };
  const canonical = jobPath(lang, job.id, titles[lang]);
  if (address.slug !== slugOf(titles[lang], lang)) return c.redirect(`${origin}${canonical}`, 301);
  const addresses = { en: `${origin}${jobPath("en", job.id, titles.en)}`, fr: `${origin}${jobPath("fr", job.id, titles.fr)}` };
  return c.html(<JobPage job={job} lang={lang} addresses={addresses} />);
}

export const pages = new Hono<AppEnv>()
  .get(STYLESHEET_PATH, (c) => c.body(STYLESHEET, 200, { "Content-Type": "text/css; charset=utf-8", "Cache-Control": "public, max-age=86400" }))
  .get("/jobs/:segment", boardResponses, (c) => jobPageOf(c, "en"))
  .get("/fr/emplois/:segment", boardResponses, (c) => jobPageOf(c, "fr"));
