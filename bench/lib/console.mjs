import { createHash, randomBytes } from "node:crypto";
import { bodyOf, formOfJob, questionName, QUESTION_MEMBERS } from "../../src/console/jobs/form.ts";
import { send } from "./load.mjs";
import { HOSTS } from "./runtime.mjs";
import { createEmployer, seedJobs } from "./seed.mjs";

// Issue 48 item 9 (DESIGN 25): the employer console's budgets, each a console request against the
// API request it stands for, same employer, one request at a time in turn (the order swapped every
// other round, so that a busy moment of the machine hits both alike): the jobs page against the
// `GET /jobs` page it shows, a saved job against the `PUT /jobs/{id}` of the same change.

const API = "/api/v1.1";
const ORIGIN = `http://${HOSTS.api}`;
/** src/console/jobs/routes.tsx's PAGE_SIZE: the console lists 20 jobs a page. */
const CONSOLE_PAGE_SIZE = 20;
const SESSION_COOKIE = "__Host-jpa_session";

/** The form the console's job page posts, as a browser encodes it (a checkbox is present when ticked). */
function formFields(form) {
  const fields = new URLSearchParams();
  for (const name of ["title", "referenceId", "status", "closeDate", "closesAt", "positionType", "salaryAmount", "salaryMaxAmount", "salaryType",
    "description", "frTitle", "frDescription", "applicantRoutingType", "applicationEmail", "applicationUrl", "aiUsedInSelection", "existingVacancy", "ifMatch"]) {
    fields.append(name, form[name]);
  }
  for (const name of ["plusCommission", "confidential", "autoRefresh"]) if (form[name]) fields.append(name, "on");
  for (const location of form.locations) fields.append("location", location);
  for (const category of form.categories) fields.append("category", category);
  form.questions.forEach((question, index) => {
    for (const member of QUESTION_MEMBERS) {
      if (member === "required") {
        if (question.required) fields.append(questionName(index, member), "on");
      } else fields.append(questionName(index, member), question[member]);
    }
  });
  return fields.toString();
}

/** A signed-in admin of the employer, as a person becomes one: an invitation (as `npm run people -- invite` writes it) accepted over HTTP. */
async function signIn(origin, accountsDb, employerId) {
  const token = randomBytes(32).toString("base64url");
  const now = Date.now();
  await accountsDb
    .prepare("INSERT INTO invitations (token_hash, employer_id, email, role, invited_by, created_at, expires_at, used_at) VALUES (?, ?, ?, 'admin', 'operator', ?, ?, NULL)")
    .bind(createHash("sha256").update(token).digest("hex"), employerId, `bench-admin-${employerId}@example.com`, now, now + 86_400_000)
    .run();
  const res = await send(origin, {
    host: HOSTS.api,
    method: "POST",
    path: `/employer/invitations/${token}`,
    headers: { Origin: ORIGIN, "Content-Type": "application/x-www-form-urlencoded" },
    body: "",
  });
  const cookie = [res.headers["set-cookie"] ?? []].flat().find((c) => c.startsWith(`${SESSION_COOKIE}=`))?.split(";")[0];
  if (res.status !== 303 || !cookie) throw new Error(`accepting the invitation answered ${res.status} ${res.body.slice(0, 300)}`);
  return cookie;
}

const percentile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

/**
 * `rounds` rounds of each side's request, one at a time, in turn (a, b, then b, a), after
 * `warmups` untimed rounds. `side.prepare()` (optional, untimed) makes the request just before
 * it is sent. An answer other than `side.expect`, or one `side.check(res)` finds wrong (it says
 * why), is counted (`wrong`) and its first named in `problems`.
 */
async function inPairs(origin, sides, { rounds, warmups, label, problems }) {
  const samples = Object.fromEntries(Object.keys(sides).map((name) => [name, []]));
  const statuses = Object.fromEntries(Object.keys(sides).map((name) => [name, {}]));
  const names = Object.keys(sides);
  for (let round = 0; round < warmups + rounds; round++) {
    for (const name of round % 2 === 0 ? names : [...names].reverse()) {
      const side = sides[name];
      const request = side.prepare ? await side.prepare() : side.request;
      const res = await send(origin, request);
      statuses[name][res.status] = (statuses[name][res.status] ?? 0) + 1;
      const wrong = res.status !== side.expect ? `${res.status} ${res.body.slice(0, 300)}` : side.check?.(res);
      if (wrong) {
        statuses[name].wrong = (statuses[name].wrong ?? 0) + 1;
        if (statuses[name].wrong === 1) problems.push(`console ${label} (${name}): ${wrong}`);
      }
      if (round >= warmups) samples[name].push(res.ms);
    }
  }
  const outcome = {};
  for (const name of names) {
    const sorted = samples[name].sort((a, b) => a - b);
    outcome[name] = { samples: sorted.length, p50: percentile(sorted, 0.5), p95: percentile(sorted, 0.95), statuses: statuses[name] };
  }
  return outcome;
}

/** Issue 48 item 9's budgets: the console ≤ 1.5 × the API request it stands for, p50 against p50. */
export async function measureConsole(origin, { db, kv, accountsDb, jobs, samples, problems, step }) {
  const employer = await createEmployer(db, kv, "Bench Console Ltd.");
  const seeded = await seedJobs(db, employer.employerId, jobs);
  const cookie = await signIn(origin, accountsDb, employer.employerId);
  const apiKey = { "API-Key": employer.apiKey };
  const options = { rounds: samples, warmups: 10, problems };

  const list = await inPairs(
    origin,
    {
      console: {
        request: { host: HOSTS.api, path: "/employer/jobs", headers: { Cookie: cookie } },
        expect: 200,
        // The jobs page itself, a full page of them.
        check: (res) => {
          const listed = new Set(res.body.match(/\/employer\/jobs\/\d+"/g)).size;
          return listed === CONSOLE_PAGE_SIZE ? undefined : `${listed} jobs listed, not ${CONSOLE_PAGE_SIZE}`;
        },
      },
      api: { request: { host: HOSTS.api, path: `${API}/jobs?pageSize=${CONSOLE_PAGE_SIZE}`, headers: apiKey }, expect: 200 },
    },
    { ...options, label: "jobs page" },
  );

  // The same job saved by both, each time with a new title: the form as the console's job page
  // fills it from the job as it is now (its ETag in `ifMatch`), and the API's body made from that
  // form by the console's own code, so both make the very same change. Reading the job is untimed.
  const jobId = seeded.first;
  let saves = 0;
  const current = async () => {
    const res = await send(origin, { host: HOSTS.api, path: `${API}/jobs/${jobId}`, headers: apiKey });
    if (res.status !== 200) throw new Error(`GET ${API}/jobs/${jobId} answered ${res.status} ${res.body.slice(0, 300)}`);
    const form = formOfJob(JSON.parse(res.body), res.headers.etag);
    return { ...form, title: `Senior Accountant ${++saves}` };
  };
  const save = await inPairs(
    origin,
    {
      console: {
        prepare: async () => ({
          host: HOSTS.api,
          method: "POST",
          path: `/employer/jobs/${jobId}`,
          headers: { Cookie: cookie, Origin: ORIGIN, "Content-Type": "application/x-www-form-urlencoded" },
          body: formFields(await current()),
        }),
        expect: 303,
        // Saved, not sent to sign-in or elsewhere.
        check: (res) => (res.headers.location === `/employer/jobs/${jobId}?saved` ? undefined : `303 to ${res.headers.location}`),
      },
      api: {
        prepare: async () => {
          const form = await current();
          const { body, problems: unread } = bodyOf(form, "save");
          if (unread.length) throw new Error(`the form of job ${jobId} has fields the console cannot read: ${JSON.stringify(unread)}`);
          return { host: HOSTS.api, method: "PUT", path: `${API}/jobs/${jobId}`, headers: { ...apiKey, "Content-Type": "application/json", "If-Match": form.ifMatch }, body: JSON.stringify(body) };
        },
        expect: 200,
      },
    },
    { ...options, label: "saved job" },
  );

  const last = JSON.parse((await send(origin, { host: HOSTS.api, path: `${API}/jobs/${jobId}`, headers: apiKey })).body);
  if (last.title !== `Senior Accountant ${saves}`) problems.push(`console saved job: its title is ${JSON.stringify(last.title)} after ${saves} saves`);
  const outcome = { jobs, pageSize: CONSOLE_PAGE_SIZE, list: { ...list, ratio: list.console.p50 / list.api.p50 }, save: { ...save, ratio: save.console.p50 / save.api.p50, jobId } };
  for (const [name, pair] of [["jobs page", outcome.list], ["saved job", outcome.save]]) {
    step(`console ${name}: p50 ${pair.console.p50.toFixed(2)} ms (p95 ${pair.console.p95.toFixed(2)}) ÷ API p50 ${pair.api.p50.toFixed(2)} ms (p95 ${pair.api.p95.toFixed(2)}) = ${pair.ratio.toFixed(2)} ×`);
  }
  return outcome;
}
