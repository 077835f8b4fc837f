import { Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { applicationsOfEmployer, applicationsOfJob, applicationWithHistory, moveApplicationTo, readApplication, resumeDownload, settleMove } from "../../applications/service";
import { toJob } from "../../jobs/representation";
import { getJob } from "../../jobs/service";
import { jobTitles } from "../../jobs/titles";
import { actorOf, callerOf, type ConsoleContext, type ConsoleEnv } from "../context";
import { langOf, page } from "../render";
import { idOf, parseListQuery, parseMove, type MoveErrors, type MoveForm } from "./form";
import { ApplicationList, applicationPath, ApplicationView } from "./pages";
import { WORDS } from "./words";

// DESIGN 25, 25a: the employer's applications in the console — all of them and one job's, one
// application with its answers and history, its moves (DESIGN 20a, through the API's own
// service: the same history, event and emails), and its résumé, downloaded through here only.
// Admins and recruiters alike; another employer's application or job is not found (404).

export const applicationPages = new Hono<ConsoleEnv>();

applicationPages.get("/employer/applications", async (c) => {
  const words = WORDS[langOf(c)];
  const query = parseListQuery(c.req.query(), words);
  const props = { lang: langOf(c), words, path: c.req.path, filters: query.filters };
  if (!query.ok) return page(c, words.title, <ApplicationList {...props} errors={query.errors} titles={new Map()} />, 422);
  const { db, employerId } = callerOf(c);
  const { data, total } = await applicationsOfEmployer(db, employerId, { status: query.status, screenedOut: query.screenedOut }, query.page, query.pageSize);
  const titles = await jobTitles(callerOf(c), data.map((application) => application.jobId));
  return page(c, words.title, <ApplicationList {...props} errors={{}} titles={titles} result={{ rows: data, total, page: query.page, pageSize: query.pageSize }} />);
});

applicationPages.get("/employer/jobs/:id/applications", async (c) => {
  const words = WORDS[langOf(c)];
  const jobId = idOf(c.req.param("id"));
  const { db, employerId } = callerOf(c);
  const row = await getJob(callerOf(c), jobId);
  const job = { id: jobId, title: row.title ?? words.untitled(jobId) };
  const query = parseListQuery(c.req.query(), words);
  const props = { lang: langOf(c), words, path: c.req.path, filters: query.filters, job, titles: new Map() };
  const title = words.titleOfJob(job.title);
  if (!query.ok) return page(c, title, <ApplicationList {...props} errors={query.errors} />, 422);
  const { data, total } = await applicationsOfJob(db, employerId, jobId, { status: query.status, screenedOut: query.screenedOut }, query.page, query.pageSize);
  return page(c, title, <ApplicationList {...props} errors={{}} result={{ rows: data, total, page: query.page, pageSize: query.pageSize }} />);
});

/** One application's page: with the move form as typed and its problems (a 422), or as it is now. */
async function showApplication(c: ConsoleContext, id: number, typed?: { form: MoveForm; errors: MoveErrors }) {
  const words = WORDS[langOf(c)];
  const { db, employerId } = callerOf(c);
  const loaded = await applicationWithHistory(db, employerId, id);
  const { title, questions } = toJob(await getJob(callerOf(c), loaded.application.jobId));
  const job = { id: loaded.application.jobId, title: title ?? words.untitled(loaded.application.jobId), questions };
  const form = typed?.form ?? { status: loaded.application.status, note: "", notifyApplicant: false };
  const status: ContentfulStatusCode = typed ? 422 : 200;
  return page(c, words.applicationTitle(loaded.application.name ?? words.erased), <ApplicationView lang={langOf(c)} words={words} loaded={loaded} job={job} form={form} errors={typed?.errors ?? {}} />, status);
}

applicationPages.get("/employer/applications/:id", (c) => showApplication(c, idOf(c.req.param("id"))));

applicationPages.post("/employer/applications/:id/status", async (c) => {
  const id = idOf(c.req.param("id"));
  const { db, employerId } = callerOf(c);
  const current = await readApplication(db, employerId, id);
  const { form, errors, move } = parseMove(await c.req.parseBody(), current.status, WORDS[langOf(c)]);
  if (!move) return showApplication(c, id, { form, errors });
  // A move made meanwhile into a final status is refused by the service itself: a 409 page, nothing changed.
  const moved = await moveApplicationTo(c.env, db, employerId, id, move, undefined, actorOf(c));
  settleMove(c, moved);
  return c.redirect(applicationPath(id), 303);
});

applicationPages.get("/employer/applications/:id/resume", async (c) => {
  const { db, employerId } = callerOf(c);
  const { body, headers } = await resumeDownload(c.env, db, employerId, idOf(c.req.param("id")));
  return c.body(body, 200, headers);
});
