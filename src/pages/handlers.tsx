import { Hono, type Context, type MiddlewareHandler } from "hono";
import type { Child } from "hono/jsx";
import type { AppEnv, Env } from "../env";
import { boardResponses } from "../board/cache";
import { boardJobForPage, searchBoardForPage, shardsOfBoardJobs, sitemapFiles, sitemapJobs } from "../board/pages";
import { createDatabase } from "../db/client";
import { atShard, isShard } from "../shards/bindings";
import { followedShard, followMovedEmployer, movedTo } from "../shards/follow";
import { EmployerMovedError } from "../shards/locks";
import { ProblemError, ValidationError } from "../http/problem";
import { enqueueEmails } from "../applications/copies";
import { submitApplication } from "../applications/submission";
import { dispatchAfterResponse } from "../events/dispatch";
import { afterResponse } from "../http/after-response";
import { clientAddress, enforce } from "../http/middleware/rate-limit";
import { loadReferenceData } from "../reference/repository";
import { publicOrigin } from "../http/paging";
import { INT32_MAX } from "../http/limits";
import type { Lang } from "../ui/i18n";
import { WORDS } from "./i18n";
import { TURNSTILE_ORIGIN } from "./apply-form";
import { contentOf, JobPage, MissingJobPage, SentPage } from "./job-page";
import { FRAUD_POLICY, HOME, jobPath, parseJobAddress, REPORT, slugOf } from "../ui/paths";
import { FraudPolicyPage, ReportPage } from "./report-page";
import { reportJob } from "../reports/service";
import { countingViews } from "../stats/views";
import { SearchPage } from "./search-page";
import { formOf, searchOf, type SearchForm } from "../board/search-form";
import { RESULTS_PER_PAGE } from "./search";
import { robotsTxt, sitemapIndexXml, sitemapXml } from "./sitemap";
import { ASSET_HEADERS, ICON, ICON_PATH, STYLESHEET, STYLESHEET_PATH } from "../ui/assets";
import { contentSecurityPolicy, withPageHeaders } from "../ui/headers";
import { nextPageAddress } from "../ui/pagination";
// DESIGN 16b, 23: the one thing of another capability these pages show — the alerts' form under a
// search's results, from alerts' public entry (alerts never import the pages).

// DESIGN 18: the board as web pages, server-rendered from the board's own database through its
// public functions. Every page works without JavaScript; none runs any.

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** A job page with the apply form may load Turnstile's script and frame, when a site key is set (DESIGN 18). */
function allowTurnstile(c: Context<AppEnv>) {
  if (c.env.TURNSTILE_SITE_KEY) c.header("Content-Security-Policy", contentSecurityPolicy({ scriptsFrom: TURNSTILE_ORIGIN }));
}

/**
 * What other capabilities show on these pages, rendered by them (DESIGN 16b): given by whoever builds the pages.
 * @public for the composition root
 */
export interface PageSlots {
  /** Under a search's results (DESIGN 23: the alert form), for the search as it stands. */
  belowResults?: (env: Env, lang: Lang, form: SearchForm) => Child;
}

async function searchPageOf(c: Context<AppEnv>, lang: Lang, slots: PageSlots) {
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
    <SearchPage lang={lang} addresses={addresses} form={form} errors={errors} reference={reference} items={found.items} more={more} belowResults={slots.belowResults?.(c.env, lang, form)} />,
    Object.keys(errors).length ? 400 : 200,
  );
}

/**
 * The job a page address names, and its canonical addresses; or the 404/410 page, or the 301.
 * From here on the request sees the job's shard as its bindings (DESIGN 22): an application or
 * a report is written there, as the board's row of the job names it.
 */
async function jobOfAddress(c: Context<AppEnv>, lang: Lang) {
  const segment = c.req.param("segment") ?? "";
  const address = parseJobAddress(segment);
  const origin = publicOrigin(c);
  const found = address ? await boardJobForPage(c.env, address.id, nowSeconds()) : ({ state: "unknown" } as const);
  if (found.state !== "open" || !address) {
    const here = { en: `${origin}/jobs/${segment}`, fr: `${origin}/fr/emplois/${segment}` };
    return { response: c.html(<MissingJobPage lang={lang} gone={found.state === "gone"} addresses={here} />, found.state === "gone" ? 410 : 404) };
  }
  const { job } = found;
  // Served again after the job's employer moved: the shard it moved to (followingMovedJobs).
  const shard = followedShard(c.env, `job:${address.id}`) ?? found.shard;
  if (isShard(c.env, shard)) c.env = atShard(c.env, shard);
  const titles: Record<Lang, string | null> = { en: job.title, fr: job.translations?.fr.title ?? job.title };
  const paths = { en: jobPath("en", job.id, titles.en), fr: jobPath("fr", job.id, titles.fr) };
  if (address.slug !== slugOf(titles[lang], lang)) return { response: c.redirect(`${origin}${paths[lang]}`, 301) };
  return { job, employerId: found.employerId, paths, addresses: { en: `${origin}${paths.en}`, fr: `${origin}${paths.fr}` } };
}

/**
 * DESIGN 22: an application or a report sent from a job's page goes to the shard the board names;
 * one its employer left since is followed, and the form served again where it lives.
 */
const followingMovedJobs: MiddlewareHandler<AppEnv> = async (c, next) => {
  // Read first: once later middleware ran, `c.req.param` names the last one's route params.
  const id = parseJobAddress(c.req.param("segment") ?? "")?.id;
  await next();
  if (c.req.method !== "POST" || id === undefined) return;
  await followMovedEmployer(c, `job:${id}`, async () => (await shardsOfBoardJobs(c.env, [id])).get(id)?.employerId ?? undefined);
};

async function jobPageOf(c: Context<AppEnv>, lang: Lang) {
  withPageHeaders(c);
  const found = await jobOfAddress(c, lang);
  if ("response" in found) return found.response;
  if (found.job.apply?.method === "email") allowTurnstile(c);
  return c.html(<JobPage job={found.job} lang={lang} addresses={found.addresses} action={found.paths[lang]} turnstileSiteKey={c.env.TURNSTILE_SITE_KEY} />);
}

/**
 * The apply form's POST (DESIGN 18): exactly the application API's rules (src/applications),
 * then 303 to the confirmation; on a problem the page again, values kept, with the status the
 * API would answer.
 */
async function applyOnPage(c: Context<AppEnv>, lang: Lang) {
  withPageHeaders(c);
  c.header("Cache-Control", "no-store");
  await enforce(c.env.APPLY_RATE_LIMITER, `address:${clientAddress(c)}`);
  const found = await jobOfAddress(c, lang);
  if ("response" in found) return found.response;
  const { resume, "cf-turnstile-response": token, ...fields } = (await c.req.parseBody({ all: true })) as Record<string, unknown>;
  try {
    const { receipt, events, confirmationId } = await submitApplication(c.env, createDatabase(c.env.DB), found.job.id, {
      fields,
      resume,
      multipart: true,
      turnstileToken: typeof token === "string" ? token : undefined,
      clientAddress: clientAddress(c),
      origin: publicOrigin(c),
    });
    dispatchAfterResponse(c, events);
    afterResponse(c, enqueueEmails(c.env, { copies: [receipt.id], applicantEmails: [confirmationId] }), "emails not queued; the cron will sweep");
    return c.redirect(`${found.paths[lang]}${SENT}`, 303);
  } catch (error) {
    if (!(error instanceof ProblemError)) throw error;
    const values = Object.fromEntries(Object.entries(fields).flatMap(([name, value]) => (typeof value === "string" || Array.isArray(value) ? [[name, value as string | string[]]] : [])));
    const errors = Object.fromEntries((error.extra.errors ?? []).map((e) => [e.field, e.message]));
    const state = { values, errors, problem: error.extra.errors ? undefined : error.detail };
    allowTurnstile(c);
    return c.html(
      <JobPage job={found.job} lang={lang} addresses={found.addresses} action={found.paths[lang]} apply={state} turnstileSiteKey={c.env.TURNSTILE_SITE_KEY} />,
      error.status as 400,
    );
  }
}

/** The confirmation after an application (303 from the POST, so a reload does not apply twice). */
async function sentPageOf(c: Context<AppEnv>, lang: Lang) {
  withPageHeaders(c);
  c.header("Cache-Control", "no-store");
  const found = await jobOfAddress(c, lang);
  if ("response" in found) return found.response;
  const addresses = { en: `${found.addresses.en}${SENT}`, fr: `${found.addresses.fr}${SENT}` };
  return c.html(<SentPage lang={lang} addresses={addresses} jobAddress={found.paths[lang]} />);
}

/** The report form of a job (GET), its POST (303 to the form's address with `?sent`), DESIGN 18a. */
async function reportPageOf(c: Context<AppEnv>, lang: Lang) {
  withPageHeaders(c);
  c.header("Cache-Control", "no-store");
  const found = await jobOfAddress(c, lang);
  if ("response" in found) return found.response;
  const here = `${found.paths[lang]}${REPORT}`;
  const addresses = { en: `${found.addresses.en}${REPORT}`, fr: `${found.addresses.fr}${REPORT}` };
  const base = { lang, addresses, jobTitle: contentOf(found.job, lang).title, jobAddress: found.paths[lang] };
  if (c.req.method === "GET") return c.html(<ReportPage {...base} sent={c.req.query("sent") !== undefined} />);
  await enforce(c.env.APPLY_RATE_LIMITER, `report:${clientAddress(c)}`);
  const fields = Object.fromEntries(Object.entries(await c.req.parseBody()).flatMap(([name, value]) => (typeof value === "string" ? [[name, value]] : [])));
  try {
    const db = createDatabase(c.env.DB);
    if (!(await reportJob(db, found.job.id, fields))) {
      // DESIGN 22: the shard the board names holds no such job: its employer moved (the report is
      // sent where it lives now), or the job was deleted a moment ago (the report is kept here).
      const moved = await movedTo(c.env.DB, found.employerId);
      if (moved !== undefined) throw new EmployerMovedError(moved);
      await reportJob(db, found.job.id, fields, { evenWithoutJob: true });
    }
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    const errors = Object.fromEntries((error.extra.errors ?? []).map((e) => [e.field, e.message]));
    return c.html(<ReportPage {...base} values={fields} errors={errors} />, 400);
  }
  return c.redirect(`${here}?sent`, 303);
}

const fraudPolicyOf = (c: Context<AppEnv>, lang: Lang) => {
  withPageHeaders(c);
  const origin = publicOrigin(c);
  return c.html(<FraudPolicyPage lang={lang} addresses={{ en: `${origin}${FRAUD_POLICY.en}`, fr: `${origin}${FRAUD_POLICY.fr}` }} />);
};

/** DESIGN 21: a job page's views, counted before the board's cache may answer. */
const countingPageViews = countingViews((c) => parseJobAddress(c.req.param("segment") ?? "")?.id ?? null);

/** Where the apply form's POST sends the applicant: the job's address and this. */
const SENT = "/sent";

/** The board's pages (DESIGN 18), showing in their slots what they are given (the composition root fills them). */
export const boardPages = (slots: PageSlots) =>
  new Hono<AppEnv>()
    .get(STYLESHEET_PATH, (c) => c.body(STYLESHEET, 200, { "Content-Type": "text/css; charset=utf-8", ...ASSET_HEADERS }))
    .get(ICON_PATH, (c) => c.body(ICON, 200, { "Content-Type": "image/svg+xml", ...ASSET_HEADERS }))
    .get("/robots.txt", (c) => c.text(robotsTxt(publicOrigin(c)), 200, { "Cache-Control": "public, max-age=86400" }))
    // One file while the board's pages fit in 50 000 addresses; past that, an index of files, each
    // a range of job ids (DESIGN 18a), so no file reads the ones before it.
    .get("/sitemap.xml", boardResponses, async (c) => {
      const files = await sitemapFiles(c.env);
      const body = files ? sitemapIndexXml(publicOrigin(c), files) : sitemapXml(publicOrigin(c), await sitemapJobs(c.env, 1, nowSeconds()));
      return c.body(body, 200, { "Content-Type": "application/xml; charset=utf-8" });
    })
    .get("/:file{sitemap-[1-9][0-9]{0,9}\\.xml}", boardResponses, async (c) => {
      const fromJobId = Number(/[0-9]+/.exec(c.req.param("file"))![0]);
      if (fromJobId > INT32_MAX) return c.notFound();
      return c.body(sitemapXml(publicOrigin(c), await sitemapJobs(c.env, fromJobId, nowSeconds())), 200, { "Content-Type": "application/xml; charset=utf-8" });
    })
    .get("/", boardResponses, (c) => searchPageOf(c, "en", slots))
    .get("/fr/", boardResponses, (c) => searchPageOf(c, "fr", slots))
    .get("/fr", (c) => c.redirect(`${publicOrigin(c)}/fr/`, 301))
    .get("/jobs/:segment", countingPageViews, boardResponses, (c) => jobPageOf(c, "en"))
    .get("/fr/emplois/:segment", countingPageViews, boardResponses, (c) => jobPageOf(c, "fr"))
    .post("/jobs/:segment", followingMovedJobs, (c) => applyOnPage(c, "en"))
    .post("/fr/emplois/:segment", followingMovedJobs, (c) => applyOnPage(c, "fr"))
    .get(`/jobs/:segment${SENT}`, (c) => sentPageOf(c, "en"))
    .get(`/fr/emplois/:segment${SENT}`, (c) => sentPageOf(c, "fr"))
    .on(["GET", "POST"], `/jobs/:segment${REPORT}`, followingMovedJobs, (c) => reportPageOf(c, "en"))
    .on(["GET", "POST"], `/fr/emplois/:segment${REPORT}`, followingMovedJobs, (c) => reportPageOf(c, "fr"))
    .get(FRAUD_POLICY.en, boardResponses, (c) => fraudPolicyOf(c, "en"))
    .get(FRAUD_POLICY.fr, boardResponses, (c) => fraudPolicyOf(c, "fr"));
