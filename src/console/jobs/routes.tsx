import { Hono, type MiddlewareHandler } from "hono";
import type { FC } from "hono/jsx";
import { dispatchAfterResponse } from "../../events/dispatch";
import type { RecordedEvent } from "../../events/outbox";
import { NotFoundError, ProblemError, type FieldError } from "../../http/problem";
import { toFieldErrors } from "../../http/validation";
import { formatDate } from "../../jobs/dates";
import { etagOf, parsePreconditions } from "../../jobs/etag";
import { checkJobRules } from "../../jobs/posting-rules";
import { toJob, toJobHeader } from "../../jobs/representation";
import { JobListQuerySchema } from "../../jobs/schemas";
import { createJob, getJob, removeJob, updateJobById, type JobRow, type WriteOptions } from "../../jobs/service";
import { brokenRules, type PostingRuleOutcome } from "../../postingrules";
import { loadReferenceData, type ReferenceData } from "../../reference/repository";
import { listJobsWithTotals } from "../../stats/service";
import type { Lang } from "../../ui/i18n";
import { callerOf, type ConsoleContext, type ConsoleEnv } from "../context";
import { langOf, page } from "../render";
import { place, placeErrors } from "./fields";
import { bodyOf, formOfJob, readForm, type FormProblem, type JobForm } from "./form";
import { DeleteConfirmation, JobFormView, JobList, JobPreview, type FormLists, type FormView, type ListRow, type Notice } from "./pages";
import { WORDS } from "./words";

// DESIGN 25, 25a: the employer's jobs in the console. Every read and write goes through the jobs
// service the API uses (src/jobs/service.ts), with the person as the actor of its events; the
// handlers only turn forms into the API's bodies (./form.ts) and answers into pages.

export const jobPages = new Hono<ConsoleEnv>();

/**
 * DESIGN 16b: the preview shows a job with the board's own job page, which the console may not
 * import (it is the pages capability's); the composition root (src/app.ts) hands it over.
 */
export type JobPageView = FC<{ job: JobRow; lang: Lang }>;

declare module "hono" {
  interface ContextVariableMap {
    jobPageView: JobPageView;
  }
}

/** The composition root's middleware that hands the console the board's job page for its preview. */
export const showingJobPage =
  (view: JobPageView): MiddlewareHandler =>
  async (c, next) => {
    c.set("jobPageView", view);
    await next();
  };

/** A page of the console's list (the API's pages are 10; a person scrolls). */
const PAGE_SIZE = 20;
/** How many places the form suggests (the most populous, from the reference data). */
const SUGGESTED_PLACES = 300;
const JOB_ID = /^[1-9][0-9]{0,9}$/;
const INT32_MAX = 2_147_483_647;

/** The job named by the address; one that cannot exist is a 404, as another employer's is. */
function jobIdOf(c: ConsoleContext): number {
  const text = c.req.param("id") ?? "";
  if (!JOB_ID.test(text) || Number(text) > INT32_MAX) throw new NotFoundError();
  return Number(text);
}

const suggestions = new WeakMap<ReferenceData, FormLists>();

/** The lists the form offers, made once per isolate (the reference data is). */
function listsOf(reference: ReferenceData): FormLists {
  let lists = suggestions.get(reference);
  if (!lists) {
    const places = reference.gazetteer
      .filter((place) => place.type === "City" && place.populationRank !== null)
      .sort((a, b) => a.populationRank! - b.populationRank!)
      .slice(0, SUGGESTED_PLACES)
      .map((place) => place.description);
    lists = { categories: reference.categories, positionTypes: reference.positionTypes, salaryTypes: reference.salaryTypes, routingTypes: reference.applicantRoutingTypes, places };
    suggestions.set(reference, lists);
  }
  return lists;
}

/** What the form shows beside its fields and at the top; nothing by default. */
interface Said {
  errors?: FieldError[];
  problems?: FormProblem[];
  rules?: PostingRuleOutcome[];
  notice?: Notice;
  conflict?: JobForm;
  saved?: FormView["saved"];
}

async function formPage(c: ConsoleContext, form: JobForm, jobId: number | undefined, said: Said, status: 200 | 409 | 422 = 200) {
  const lang = langOf(c);
  const words = WORDS[lang];
  const lists = listsOf(await loadReferenceData(c.var.db));
  const view: FormView = {
    form,
    action: jobId === undefined ? "/employer/jobs" : `/employer/jobs/${jobId}`,
    lists,
    jobId,
    saved: said.saved,
    notice: said.notice,
    errors: placeErrors(said.errors ?? [], form, (said.problems ?? []).map((problem) => problem.field)),
    problems: said.problems ?? [],
    rules: said.rules,
    warnings: place(brokenRules(said.rules ?? []), (outcome) => outcome.field, form),
    conflict: said.conflict,
  };
  const title = jobId === undefined ? words.newTitle : words.editTitle(form.title || said.saved?.title || words.untitled);
  return page(c, title, <JobFormView lang={lang} view={view} />, status);
}

/** A saved job in its form: the version opened, what its posting rules find. */
const savedJobPage = (c: ConsoleContext, row: JobRow, said: Said = {}, status: 200 | 422 = 200) =>
  formPage(c, formOfJob(toJob(row), etagOf(row)), row.id, { rules: checkJobRules(row), saved: { id: row.id, status: row.status, title: row.title }, ...said }, status);

/**
 * The service's refusals a person corrects in the form (422), each on the member it names; others
 * (not found, the service busy) are the console's error pages.
 */
function correctable(error: unknown): FieldError[] | undefined {
  if (!(error instanceof ProblemError)) return undefined;
  // 409s of the API that are about one member of the form.
  if (error.kind === "duplicate-reference-id") return [{ field: "referenceId", message: error.detail }];
  if (error.kind === "invalid-transition") return [{ field: "status", message: error.detail }];
  // A validation error (400) and a refusal by the posting rules under enforce (422).
  if ((error.status === 400 || error.status === 422) && error.extra.errors) return error.extra.errors;
  return undefined;
}

/**
 * A save or a check (`check=1`: the API's validateOnly) of the form, through the service the API
 * uses. A form with fields it cannot read is checked too, so one answer names every problem,
 * and never saved.
 */
async function submit(c: ConsoleContext, jobId: number | undefined) {
  const posted = await c.req.parseBody({ all: true });
  const form = readForm(posted);
  const { body, problems } = bodyOf(form, jobId === undefined ? "create" : "save");
  const events: RecordedEvent[] = [];
  const options: WriteOptions = {
    validateOnly: posted.check !== undefined || problems.length > 0,
    ifMatch: jobId === undefined ? undefined : parsePreconditions(form.ifMatch || undefined),
    events,
  };
  try {
    const result = jobId === undefined ? await createJob(callerOf(c), body, options) : await updateJobById(callerOf(c), jobId, body, options);
    dispatchAfterResponse(c, events);
    if (problems.length) return formPage(c, form, jobId, { problems }, 422);
    if (!result.stored) return formPage(c, form, jobId, { rules: checkJobRules(result.preview), notice: "checked" });
    return c.redirect(`/employer/jobs/${result.row.id}?saved`, 303);
  } catch (error) {
    if (jobId !== undefined && error instanceof ProblemError && error.status === 412) {
      // DESIGN 25: changed meanwhile — nothing saved; both versions, and the saved one's ETag, so saving again overwrites knowingly.
      const current = await getJob(callerOf(c), jobId);
      return formPage(c, { ...form, ifMatch: etagOf(current) }, jobId, { conflict: formOfJob(toJob(current), etagOf(current)), problems }, 409);
    }
    const errors = correctable(error);
    if (!errors) throw error;
    return formPage(c, form, jobId, { errors, problems }, 422);
  }
}

/** DESIGN 25a: publish, archive and re-publish are the API's status change, with its events. */
async function move(c: ConsoleContext, status: "active" | "archived") {
  const jobId = jobIdOf(c);
  const events: RecordedEvent[] = [];
  try {
    await updateJobById(callerOf(c), jobId, { status }, { events });
  } catch (error) {
    const errors = correctable(error);
    if (!errors) throw error;
    // Refused (say, publishing a posting that breaks a rule its employer enforces): the job as it is, and why.
    return savedJobPage(c, await getJob(callerOf(c), jobId), { errors }, 422);
  }
  dispatchAfterResponse(c, events);
  return c.redirect(`/employer/jobs/${jobId}?${status === "active" ? "published" : "archived"}`, 303);
}

/** The list's address with these parameters (those set). */
function listAddress(params: Record<string, string | number | undefined>): string {
  const query = new URLSearchParams(Object.entries(params).filter(([, value]) => value !== undefined && value !== "") as [string, string][]);
  const text = query.toString();
  return text ? `/employer/jobs?${text}` : "/employer/jobs";
}

jobPages.get("/employer/jobs", async (c) => {
  const lang = langOf(c);
  const words = WORDS[lang];
  const asked = { q: c.req.query("q") ?? "", status: c.req.query("status") ?? "" };
  // The API's query rules (GET /jobs), with the console's page size; an empty field is no filter.
  const query = JobListQuerySchema.safeParse({ q: asked.q || undefined, status: asked.status || undefined, page: c.req.query("page"), pageSize: String(PAGE_SIZE) });
  const deleted = c.req.query("deleted") !== undefined;
  if (!query.success) {
    const errors = placeErrors(toFieldErrors(query.error.issues), { questions: [] });
    const view = { ...asked, rows: [], page: 1, pages: 0, total: 0, previous: null, next: null, errors, deleted };
    return page(c, words.listTitle, <JobList lang={lang} view={view} />, 422);
  }
  const { q, status, page: number } = query.data;
  // The page, its total and its views and applications: one round trip, as GET /jobs's page is.
  const { rows, total, totals } = await listJobsWithTotals(c.var.db, c.var.employerId, { q, status, page: number, pageSize: PAGE_SIZE });
  const listed: ListRow[] = rows.map((row) => {
    const header = toJobHeader(row);
    return {
      id: header.id,
      title: header.title,
      referenceId: header.referenceId,
      status: header.status,
      places: header.locations.map((location) => location.description),
      closeDate: formatDate(row.closeDate),
      views: totals.get(row.id)?.views ?? 0,
      applications: totals.get(row.id)?.applications ?? 0,
      broken: header.postingRules.filter((outcome) => outcome.status === "broken").map((outcome) => outcome.rule),
    };
  });
  const pages = Math.ceil(total / PAGE_SIZE);
  const view = {
    ...asked,
    rows: listed,
    page: number,
    pages,
    total,
    previous: number > 1 ? listAddress({ ...asked, page: Math.min(number - 1, Math.max(pages, 1)) }) : null,
    next: number < pages ? listAddress({ ...asked, page: number + 1 }) : null,
    errors: placeErrors([], { questions: [] }),
    deleted,
  };
  return page(c, words.listTitle, <JobList lang={lang} view={view} />);
});

const EMPTY_FORM = readForm({});

jobPages.get("/employer/jobs/new", (c) => formPage(c, { ...EMPTY_FORM, status: "draft" }, undefined, {}));

jobPages.post("/employer/jobs", (c) => submit(c, undefined));

jobPages.get("/employer/jobs/:id", async (c) => {
  const row = await getJob(callerOf(c), jobIdOf(c));
  const notice = (["saved", "archived", "published"] as const).find((name) => c.req.query(name) !== undefined);
  return savedJobPage(c, row, { notice });
});

jobPages.post("/employer/jobs/:id", (c) => submit(c, jobIdOf(c)));

jobPages.get("/employer/jobs/:id/preview", async (c) => {
  const row = await getJob(callerOf(c), jobIdOf(c));
  const asked = c.req.query("lang");
  const lang = asked === "en" || asked === "fr" ? asked : langOf(c);
  const job = toJob(row);
  const title = (lang === "fr" ? job.translations?.fr.title : undefined) ?? job.title ?? WORDS[lang].untitled;
  const JobPage = c.get("jobPageView");
  return page(
    c,
    WORDS[langOf(c)].previewTitle(title),
    <JobPreview lang={lang} jobId={row.id}>
      <JobPage job={row} lang={lang} />
    </JobPreview>,
  );
});

jobPages.post("/employer/jobs/:id/publish", (c) => move(c, "active"));
jobPages.post("/employer/jobs/:id/archive", (c) => move(c, "archived"));

jobPages.post("/employer/jobs/:id/delete", async (c) => {
  const jobId = jobIdOf(c);
  const { confirm } = await c.req.parseBody();
  if (confirm !== "yes") {
    // Asked again; another employer's job is still a 404.
    const row = await getJob(callerOf(c), jobId);
    const lang = langOf(c);
    return page(c, WORDS[lang].deleteAsk(row.title ?? WORDS[lang].untitled), <DeleteConfirmation lang={lang} jobId={jobId} />, 422);
  }
  const events: RecordedEvent[] = [];
  await removeJob(callerOf(c), { id: jobId }, undefined, events);
  dispatchAfterResponse(c, events);
  return c.redirect("/employer/jobs?deleted", 303);
});
