import { Hono, type Context } from "hono";
import type { AppEnv } from "../env";
import { boardResponses } from "../board/cache";
import { boardJobForPage, searchBoardForPage, sitemapFiles, sitemapJobs } from "../board/pages";
import { createDatabase } from "../db/client";
import { ValidationError } from "../http/problem";
import { loadReferenceData } from "../reference/repository";
import { publicOrigin } from "../http/paging";
import { WORDS, type Lang } from "./i18n";
import { JobPage, MissingJobPage } from "./job-page";
import { HOME, jobPath, parseJobAddress, slugOf } from "./paths";
import { SearchPage } from "./search-page";
import { formOf, nextPageAddress, RESULTS_PER_PAGE, searchOf } from "./search";
import { robotsTxt, sitemapIndexXml, sitemapXml } from "./sitemap";
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

const withPageHeaders = (c: Context<AppEnv>) => {
  for (const [name, value] of Object.entries(PAGE_HEADERS)) c.header(name, value);
};

async function searchPageOf(c: Context<AppEnv>, lang: Lang) {
  withPageHeaders(c);
  const origin = publicOrigin(c);
  const form = formOf(c.req.query());
  const reference = await loadReferenceData(createDatabase(c.env.DB));
  const { search, errors } = searchOf(form, lang, reference.gazetteer);
  const query = new URL(c.req.url).search;
  const addresses = { en: `${origin}${HOME.en}${query}`, fr: `${origin}${HOME.fr}${query}` };
  const failed = Object.keys(errors).length > 0;
  let found: Awaited<ReturnType<typeof searchBoardForPage>> = { items: [], next: null };
  if (!failed) {
    try {
      found = await searchBoardForPage(c.env, search, RESULTS_PER_PAGE, nowSeconds());
    } catch (error) {
      // The board refuses a place it cannot measure from: the form says so next to the field.
      if (!(error instanceof ValidationError)) throw error;
      errors.place = WORDS[lang].noPoint;
    }
  }
  const more = found.next ? nextPageAddress(HOME[lang], form, found.next) : null;
  return c.html(
    <SearchPage lang={lang} addresses={addresses} form={form} errors={errors} reference={reference} items={found.items} more={more} />,
    Object.keys(errors).length ? 400 : 200,
  );
}

async function jobPageOf(c: Context<AppEnv>, lang: Lang) {
  withPageHeaders(c);
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
  .get("/robots.txt", (c) => c.text(robotsTxt(publicOrigin(c)), 200, { "Cache-Control": "public, max-age=86400" }))
  // One file while the board's pages fit in 50 000 addresses; past that, an index of files.
  .get("/sitemap.xml", boardResponses, async (c) => {
    const files = await sitemapFiles(c.env);
    const body = files === 1 ? sitemapXml(publicOrigin(c), await sitemapJobs(c.env, 0)) : sitemapIndexXml(publicOrigin(c), files);
    return c.body(body, 200, { "Content-Type": "application/xml; charset=utf-8" });
  })
  .get("/:file{sitemap-[1-9][0-9]{0,4}\\.xml}", boardResponses, async (c) => {
    const n = Number(/[0-9]+/.exec(c.req.param("file"))![0]);
    if (n > (await sitemapFiles(c.env))) return c.notFound();
    return c.body(sitemapXml(publicOrigin(c), await sitemapJobs(c.env, n - 1)), 200, { "Content-Type": "application/xml; charset=utf-8" });
  })
  .get("/", boardResponses, (c) => searchPageOf(c, "en"))
  .get("/fr/", boardResponses, (c) => searchPageOf(c, "fr"))
  .get("/fr", (c) => c.redirect(`${publicOrigin(c)}/fr/`, 301))
  .get("/jobs/:segment", boardResponses, (c) => jobPageOf(c, "en"))
  .get("/fr/emplois/:segment", boardResponses, (c) => jobPageOf(c, "fr"));
