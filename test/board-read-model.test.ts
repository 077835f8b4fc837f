import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../src/index";
import { restoreTombstones } from "../src/board/reconcile";
import { BOARD_REBUILD } from "../src/board/reconcile";
import { atShard } from "../src/shards/bindings";
import { onBoardCountSql } from "../src/jobs/on-board";
import { openBoardJobsCountSql } from "../src/board/open-jobs";
import { BASE, createEmployer, createTestKey, problemOf, request, shardDb } from "./support/api";
import { eventually, settleBoard } from "./support/board";
import { parameterAdmits } from "./support/contract";
import { postJob } from "./support/jobs";

// DESIGN 17: the board is a projection in its own database, fed by the events' queue, repaired
// by the cron, searched newest first by a word index keyed by seq.

const employer = await createEmployer({ name: "Projection Works Ltd." });
let unique = 0;
const fresh = (path: string) => `${path}${path.includes("?") ? "&" : "?"}t=${Date.now()}-${++unique}`;
const word = () => `zr${Math.random().toString(36).slice(2, 8)}`;
const boardJob = (id: number) => request(fresh(`/board/jobs/${id}`));
const boardIds = async (query: string) => {
  const res = await request(fresh(`/board/jobs?${query}`));
  expect(res.status, query).toBe(200);
  return ((await res.json<any>()).data as { id: number }[]).map((item) => item.id);
};
/** A PUT of the employer's, then the board settled (its change applied). */
async function putThenSettle(id: number, json: Record<string, unknown>) {
  expect((await request(`/jobs/${id}`, { method: "PUT", apiKey: employer.apiKey, json })).status).toBe(200);
  await settleBoard();
}
const boardRow = (jobId: number) =>
  env.BOARD_DB.prepare("SELECT seq, revision, title FROM board_jobs WHERE job_id = ?").bind(jobId).first<{ seq: number; revision: number; title: string }>();
// workers-types leaves `scheduled` off the loopback stub's type; the plugin forwards it to the entry.
const entry = exports.default as typeof exports.default & { scheduled(controller: { scheduledTime: number; cron: string }): Promise<void> };
/** A Cron Trigger run through the Worker's entry (or the rebuild, by its name). */
/** A run two minutes on: the changes of the test are then settled, no longer left to their messages. */
const runCron = (scheduledTime = Date.now() + 120_000, cron = "0 * * * *") => entry.scheduled({ cron, scheduledTime });
const jobEvents = async (jobId: number) =>
  (await env.DB.prepare("SELECT id, revision FROM events WHERE subject_id = ? AND type LIKE 'job.%' ORDER BY revision").bind(jobId).all<{ id: string; revision: number }>()).results;
/**
 * The board's database lost, then made again by its migrations: every row derived from jobs is
 * gone, what the migrations seed (the places, the total) is as they leave it. Checked table by
 * table, so a table added later is not forgotten here.
 */
async function loseBoard() {
  await env.BOARD_DB.batch(
    [
      "INSERT INTO board_search (board_search) VALUES ('delete-all')",
      // Its triggers empty the lists and bring the total and the places' counts back to 0.
      "DELETE FROM board_jobs",
      "DELETE FROM board_employers",
      "DELETE FROM board_revisions",
      "DELETE FROM board_receipts",
    ].map((statement) => env.BOARD_DB.prepare(statement)),
  );
  const { results: tables } = await env.BOARD_DB.prepare(
    `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\'
      AND name NOT LIKE 'board\\_search\\_%' ESCAPE '\\' AND name NOT IN ('d1_migrations', 'board_places', 'board_totals')`,
  ).all<{ name: string }>();
  expect(tables.map((table) => table.name)).toContain("board_revisions");
  for (const { name } of tables) expect((await env.BOARD_DB.prepare(`SELECT count(*) AS n FROM "${name}"`).first<{ n: number }>())!.n, name).toBe(0);
  expect(await env.BOARD_DB.prepare("SELECT (SELECT jobs FROM board_totals) AS total, (SELECT sum(jobs) FROM board_places) AS placed").first()).toEqual({ total: 0, placed: 0 });
}
/** The board queue's consumer, given these events' ids as one message each, in this order. */
async function consume(eventIds: string[]) {
  const batch = createMessageBatch("job-posting-board", eventIds.map((id, i) => ({ id: `m${i}`, timestamp: new Date(), attempts: 1, body: { events: [id] } })));
  const ctx = createExecutionContext();
  await worker.queue(batch as MessageBatch, env);
  const result = await getQueueResult(batch, ctx);
  expect(result.ackAll).toBe(true);
}

describe("fed by events on the board's own queue", () => {
  it("a change is on the board within 5 s of its answer, through the real queue and consumer", async () => {
    const started = Date.now();
    const job = await postJob(employer, { title: `${word()} Fresh`, status: "active" });
    let status = 0;
    while (Date.now() - started < 5_000 && status !== 200) {
      status = (await boardJob(job.id)).status;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toBe(200);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("a message applied twice, or an older one after a newer one, changes nothing: the board keeps the newest revision", async () => {
    const job = await postJob(employer, { title: "Version one", status: "active" });
    await putThenSettle(job.id, { title: "Version two" });
    const [created, updated] = [(await jobEvents(job.id))[0], (await jobEvents(job.id)).at(-1)!];
    expect(updated.revision).toBeGreaterThan(created.revision);
    await consume([updated.id, updated.id, created.id]);
    expect(await boardRow(job.id)).toMatchObject({ title: "Version two", revision: updated.revision });
    // Out of order on a board that missed both: the newer one wins whichever comes first.
    await env.BOARD_DB.batch([env.BOARD_DB.prepare("DELETE FROM board_jobs WHERE job_id = ?").bind(job.id), env.BOARD_DB.prepare("DELETE FROM board_revisions WHERE job_id = ?").bind(job.id)]);
    await consume([updated.id]);
    await consume([created.id]);
    expect(await boardRow(job.id)).toMatchObject({ title: "Version two", revision: updated.revision });
  });

  it("archive, re-publish and delete reach the board; a deleted job never comes back from an older message", async () => {
    const job = await postJob(employer, { title: `${word()} Lifecycle`, status: "active" });
    await settleBoard();
    const first = await boardRow(job.id);
    await putThenSettle(job.id, { status: "archived" });
    expect(await boardRow(job.id)).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 1_100)); // a new publishDate second
    await putThenSettle(job.id, { status: "active" });
    const republished = await boardRow(job.id);
    expect(republished!.seq).toBeGreaterThan(first!.seq);
    const events = await jobEvents(job.id);
    expect((await request(`/jobs/${job.id}`, { method: "DELETE", apiKey: employer.apiKey })).status).toBe(204);
    await settleBoard();
    expect(await boardRow(job.id)).toBeNull();
    await consume(events.map((event) => event.id));
    expect(await boardRow(job.id)).toBeNull();
    expect((await boardJob(job.id)).status).toBe(404);
  });

  it("an update that keeps the publishDate keeps the job's place in the board's order (its seq)", async () => {
    const job = await postJob(employer, { title: `${word()} Steady`, status: "active" });
    await settleBoard();
    const before = await boardRow(job.id);
    await putThenSettle(job.id, { title: "Steady, renamed" });
    expect(await boardRow(job.id)).toMatchObject({ seq: before!.seq, title: "Steady, renamed" });
  });
});

describe("repaired by the cron", () => {
  it("a board row deleted by hand, a stale one and one that should not be there are each repaired by one cron run", async () => {
    const lost = await postJob(employer, { title: `${word()} Lost`, status: "active" });
    const stale = await postJob(employer, { title: `${word()} Stale`, status: "active" });
    const stray = await postJob(employer, { title: `${word()} Stray`, status: "active" });
    await settleBoard();
    await env.BOARD_DB.prepare("DELETE FROM board_jobs WHERE job_id = ?").bind(lost.id).run();
    await env.BOARD_DB.prepare("UPDATE board_jobs SET revision = revision - 1, title = 'old' WHERE job_id = ?").bind(stale.id).run();
    // Closed in jobs without an event (as if its message were lost).
    await env.DB.prepare("UPDATE jobs SET status = 'archived' WHERE id = ?").bind(stray.id).run();
    await runCron();
    // The stray row goes in the run itself; the repairs come through the board queue.
    expect(await boardRow(stray.id)).toBeNull();
    await eventually(async () => {
      expect(await boardRow(lost.id)).toMatchObject({ title: lost.title });
      expect(await boardRow(stale.id)).toMatchObject({ title: stale.title });
    });
  });

  it("a board wiped by hand is whole again after one cron run; board:rebuild rebuilds it from scratch", async () => {
    const rebuilt = [];
    for (let i = 0; i < 4; i++) rebuilt.push((await postJob(employer, { title: `${word()} Rebuilt`, status: "active" })).id);
    await settleBoard();
    const rows = async () => (await env.BOARD_DB.prepare("SELECT job_id, revision, title, publish_date FROM board_jobs ORDER BY job_id").all()).results;
    /** The board's order after a rebuild: newest publishDate first, then (same second) the job published last. */
    const order = async () => (await env.BOARD_DB.prepare("SELECT job_id FROM board_jobs ORDER BY seq DESC").all()).results;
    const expectedOrder = async () => (await env.BOARD_DB.prepare("SELECT job_id FROM board_jobs ORDER BY publish_date DESC, job_id DESC").all()).results;
    const whole = await rows();
    expect(whole.length).toBeGreaterThanOrEqual(4);
    await env.BOARD_DB.batch(["board_jobs", "board_revisions", "board_employers"].map((table) => env.BOARD_DB.prepare(`DELETE FROM ${table}`)));
    await runCron();
    await eventually(async () => expect(await rows()).toEqual(whole));
    expect(await order()).toEqual(await expectedOrder());
    await runCron(Date.now() + 120_000, BOARD_REBUILD);
    await eventually(async () => expect(await rows()).toEqual(whole));
    expect(await order()).toEqual(await expectedOrder());
    // The word index was rebuilt too: each job is found by its words again, once.
    expect((await boardIds("q=rebuilt&pageSize=50")).sort()).toEqual(rebuilt.sort());
    // The lists and the word index follow the rows: nothing is left over or missing.
    const counts = await env.BOARD_DB.prepare(
      "SELECT (SELECT count(DISTINCT seq) FROM board_job_places) AS places, (SELECT count(*) FROM board_jobs) AS jobs, (SELECT jobs FROM board_totals) AS total",
    ).first<{ places: number; jobs: number; total: number }>();
    expect(counts).toEqual({ places: whole.length, jobs: whole.length, total: whole.length });
  });

  it("board:rebuild finishes once the board holds every job that should be on it: test-space jobs, drafts and jobs past their closeDate are not among them (DESIGN 17a)", async () => {
    const live = await postJob(employer, { title: `${word()} Counted`, status: "active" });
    await postJob(await createTestKey(employer), { title: `${word()} Test space`, status: "active" });
    await postJob(employer, { title: `${word()} Draft` });
    const closed = await postJob(employer, { title: `${word()} Closed`, status: "active" });
    await settleBoard();
    // Past its closeDate, not yet archived by the cron (which would run at the next hour).
    await env.DB.prepare("UPDATE jobs SET close_date = publish_date + 1 WHERE id = ?").bind(closed.id).run();
    await runCron(Date.now() + 120_000, BOARD_REBUILD);
    // npm run board:rebuild's wait: the two counts it compares, at one moment.
    const counts = async () => {
      const now = Math.floor(Date.now() / 1000);
      const expected = (await env.DB.prepare(onBoardCountSql(now)).first<{ jobs: number }>())!.jobs;
      const onBoard = (await env.BOARD_DB.prepare(openBoardJobsCountSql(now)).first<{ jobs: number }>())!.jobs;
      return { expected, onBoard };
    };
    // Met once the queue has put back what the rebuild handed over: never, were a test job counted.
    await eventually(async () => {
      const { expected, onBoard } = await counts();
      expect(expected).toBeGreaterThan(0);
      expect(onBoard).toBe(expected);
    });
    expect(await boardRow(live.id)).not.toBeNull();
    expect(await boardRow(closed.id)).toBeNull();
  });

  it("a rebuild keeps the board's tombstones: the page of a job that left the board before it still answers 410 (DESIGN 18a)", async () => {
    const job = await postJob(employer, { title: `${word()} Tombstone`, status: "active" });
    await settleBoard();
    expect((await request(`/jobs/${job.id}`, { method: "PUT", apiKey: employer.apiKey, json: { status: "archived" } })).status).toBe(200);
    await settleBoard();
    const page = () => request(`${BASE}/jobs/${job.id}?t=${Date.now()}-${++unique}`, { undocumented: true });
    expect((await page()).status).toBe(410);
    await runCron(Date.now() + 120_000, BOARD_REBUILD);
    await settleBoard();
    expect((await page()).status).toBe(410);
    expect((await boardJob(job.id)).status).toBe(404);
  });

  it("a rebuild after the board's database was lost puts back the tombstones of the jobs that left it: their pages answer 410 in English and French (DESIGN 18a)", async () => {
    const other = await createEmployer({ name: "Tombstones Elsewhere Ltd.", shard: 1 });
    const archived = await postJob(employer, { title: `${word()} Archived`, status: "active" });
    const closed = await postJob(other, { title: `${word()} Closed`, status: "active" });
    const testKey = await createTestKey(employer);
    const testSpace = await postJob(testKey, { title: `${word()} Test space`, status: "active" });
    const draft = await postJob(employer, { title: `${word()} Draft` });
    await settleBoard();
    expect((await request(`/jobs/${archived.id}`, { method: "PUT", apiKey: employer.apiKey, json: { status: "archived" } })).status).toBe(200);
    expect((await request(`/jobs/${testSpace.id}`, { method: "PUT", apiKey: testKey.apiKey, json: { status: "archived" } })).status).toBe(200);
    await settleBoard();
    // Past its closeDate, not yet archived by the cron (which would run at the next hour).
    await shardDb(1).prepare("UPDATE jobs SET close_date = publish_date + 1 WHERE id = ?").bind(closed.id).run();
    const pages = (id: number) => [`${BASE}/jobs/${id}`, `${BASE}/fr/emplois/${id}`];
    const statuses = async (id: number) =>
      Promise.all(pages(id).map(async (path) => (await request(`${path}?t=${Date.now()}-${++unique}`, { undocumented: true, redirect: "manual" })).status));

    await loseBoard();
    await runCron(Date.now() + 120_000, BOARD_REBUILD);
    await settleBoard();
    expect(await statuses(archived.id)).toEqual([410, 410]);
    expect(await statuses(closed.id)).toEqual([410, 410]);
    // Never on the board: still no tombstone.
    expect(await statuses(testSpace.id)).toEqual([404, 404]);
    expect(await statuses(draft.id)).toEqual([404, 404]);

    // A rebuild that lost nothing keeps every tombstone it found, a deleted job's included.
    const deleted = await postJob(employer, { title: `${word()} Deleted`, status: "active" });
    await settleBoard();
    expect((await request(`/jobs/${deleted.id}`, { method: "DELETE", apiKey: employer.apiKey })).status).toBe(204);
    await settleBoard();
    await runCron(Date.now() + 120_000, BOARD_REBUILD);
    await settleBoard();
    for (const id of [archived.id, closed.id, deleted.id]) expect(await statuses(id), String(id)).toEqual([410, 410]);
  });

  it("a rebuild looks for tombstones a page of jobs at a time: each read walks the jobs by id after the last one read and stops at its page, sorting nothing (DESIGN 6a)", async () => {
    const { capturingD1 } = await import("./support/d1-proxies");
    for (let i = 0; i < 3; i++) await postJob(employer, { title: `${word()} Paged`, status: "archived" });
    const shard = atShard(env, 0);
    const { jobs, left } = (await env.DB.prepare(
      "SELECT count(*) AS jobs, count(*) FILTER (WHERE test = 0 AND (status = 'archived' OR (status = 'active' AND close_date <= ?))) AS left FROM jobs",
    )
      .bind(Math.floor(Date.now() / 1000))
      .first<{ jobs: number; left: number }>())!;
    expect(left).toBeGreaterThanOrEqual(3);
    const { db, ran } = capturingD1(env.DB);
    expect(await restoreTombstones({ ...shard, DB: db }, Date.now(), { page: 2 })).toBe(left);
    // One read per 2 jobs, and one more that comes back short.
    expect(ran.length).toBe(Math.floor(jobs / 2) + 1);
    const { results: ids } = await env.DB.prepare("SELECT id FROM jobs ORDER BY id").all<{ id: number }>();
    expect(ran.map((read) => read.params[read.params.length - 2])).toEqual([0, ...ids.filter((_, i) => i % 2 === 1).map((row) => row.id)]);
    const plan = (await env.DB.prepare(`EXPLAIN QUERY PLAN ${ran[1].sql}`).bind(...ran[1].params).all<{ detail: string }>()).results.map((step) => step.detail);
    expect(plan[0], plan.join(" | ")).toMatch(/^SEARCH j USING INTEGER PRIMARY KEY \(rowid>\?\)/);
    expect(plan.some((step) => step.startsWith("USE TEMP B-TREE")), plan.join(" | ")).toBe(false);
  });

  it("an employer's name is repaired by the cron when its change never reached the board", async () => {
    const renamed = await createEmployer({ name: "Before Rename Inc." });
    const job = await postJob(renamed, { title: `${word()} Renamed`, status: "active" });
    await settleBoard();
    await env.DB.prepare("UPDATE employers SET name = 'After Rename Inc.' WHERE id = ?").bind(renamed.employerId).run();
    await runCron();
    expect((await (await boardJob(job.id)).json<any>()).employer.name).toBe("After Rename Inc.");
    expect(await boardIds("q=after+rename")).toContain(job.id);
    expect(await boardIds("q=before+rename")).not.toContain(job.id);
  });
});

describe("search words: the title and the employer's public name", () => {
  it("q matches words of the employer's name, never a confidential employer's", async () => {
    const named = await createEmployer({ name: `Quillfeather ${word()} Ltd.` });
    const open = await postJob(named, { title: "Bookkeeper", status: "active" });
    const hidden = await postJob(named, { title: "Bookkeeper", status: "active", confidential: true });
    await settleBoard();
    const ids = await boardIds("q=quillfeath+bookkeep&pageSize=50");
    expect(ids).toContain(open.id);
    expect(ids).not.toContain(hidden.id);
  });

  it("an employer's rename (employer.renamed) reaches its jobs' words and names", async () => {
    const firm = await createEmployer({ name: "Oldname Partners" });
    const job = await postJob(firm, { title: `${word()} Analyst`, status: "active" });
    await settleBoard();
    const id = `evt_${crypto.randomUUID().replaceAll("-", "")}`;
    await env.DB.batch([
      env.DB.prepare("UPDATE employers SET name = 'Newname Partners' WHERE id = ?").bind(firm.employerId),
      env.DB.prepare("INSERT INTO events (id, type, employer_id, subject_id, revision, occurred_at, data) VALUES (?, 'employer.renamed', ?, ?, NULL, ?, ?)").bind(
        id, firm.employerId, firm.employerId, Date.now(), JSON.stringify({ name: "Newname Partners" }),
      ),
    ]);
    await consume([id]);
    expect(await boardIds("q=newname")).toEqual([job.id]);
    expect(await boardIds("q=oldname")).toEqual([]);
  });
});

describe("radius and salary search", () => {
  const near = async (query: string) => {
    const res = await request(fresh(`/board/jobs?${query}`));
    expect(res.status, query).toBe(200);
    return (await res.json<any>()).data as { id: number; distanceKm: number }[];
  };

  it("near and radiusKm: jobs with a place within the great-circle distance, nearest place's distance with one decimal, newest first", async () => {
    const tag = word();
    const toronto = await postJob(employer, { title: `${tag} Toronto`, status: "active", locations: [{ description: "Toronto, ON" }] });
    const mississauga = await postJob(employer, { title: `${tag} Mississauga`, status: "active", locations: [{ description: "Mississauga, ON" }] });
    const both = await postJob(employer, { title: `${tag} Both`, status: "active", locations: [{ description: "Ottawa, ON" }, { description: "Mississauga, ON" }] });
    const ottawa = await postJob(employer, { title: `${tag} Ottawa`, status: "active", locations: [{ description: "Ottawa, ON" }] });
    const province = await postJob(employer, { title: `${tag} Anywhere`, status: "active", locations: [{ description: "Ontario" }] });
    await settleBoard();
    const torontoId = toronto.locations[0].id;
    const found = await near(`q=${tag}&near=${torontoId}`);
    expect(found.map((item) => item.id)).toEqual([both.id, mississauga.id, toronto.id]);
    expect(found.find((item) => item.id === toronto.id)!.distanceKm).toBe(0);
    const toMississauga = found.find((item) => item.id === mississauga.id)!.distanceKm;
    expect(toMississauga).toBeGreaterThan(20);
    expect(toMississauga).toBeLessThan(30);
    expect(Number.isInteger(toMississauga * 10)).toBe(true);
    expect(found.find((item) => item.id === both.id)!.distanceKm).toBe(toMississauga);
    // 400 km reaches Ottawa; a province is an area, never a match.
    expect((await near(`q=${tag}&near=${torontoId}&radiusKm=400`)).map((item) => item.id)).toEqual([ottawa.id, both.id, mississauga.id, toronto.id]);
    expect((await near(`q=${tag}&near=${torontoId}&radiusKm=400`)).map((item) => item.id)).not.toContain(province.id);
    // Walked in seq order (a page of one) or read by its places (a page of 50): the same jobs.
    const walked: number[] = [];
    let next: string | null = `/board/jobs?q=${tag}&near=${torontoId}&radiusKm=400&pageSize=1`;
    while (next) {
      const body: any = await (await request(next.replace(/^https?:\/\/[^/]+\/api\/v1\.1/, ""))).json();
      walked.push(...body.data.map((item: any) => item.id));
      next = body.paging.next;
    }
    expect(walked).toEqual([ottawa.id, both.id, mississauga.id, toronto.id]);
  });

  it("salaryMin: the top of the range converted to a year (hourly × 2 080, daily × 260, weekly × 52, monthly × 12) reaches it", async () => {
    const tag = word();
    const post = (salary: object) => postJob(employer, { title: `${tag} Paid`, status: "active", salary });
    const hourly = await post({ amount: 28, maxAmount: 30, type: { id: 5 } }); // 62 400
    const monthly = await post({ amount: 5_000, type: { id: 2 } }); // 60 000: reaches it exactly
    const yearly = await post({ amount: 50_000, maxAmount: 55_000, type: { id: 1 } });
    const daily = await post({ amount: 240, type: { id: 4 } }); // 62 400
    const weekly = await post({ amount: 1_100, type: { id: 3 } }); // 57 200
    await postJob(employer, { title: `${tag} Unpaid`, status: "active" });
    await settleBoard();
    expect((await boardIds(`q=${tag}&salaryMin=60000`)).sort()).toEqual([hourly.id, monthly.id, daily.id].sort());
    expect((await boardIds(`q=${tag}&salaryMin=57200`)).sort()).toEqual([hourly.id, monthly.id, daily.id, weekly.id].sort());
    expect(await boardIds(`q=${tag}&salaryMin=0`)).toHaveLength(5);
    expect(yearly.id).toBeGreaterThan(0);
  });

  it("radiusKm has at most 3 decimals: the API's 400 and the document's multipleOf refuse the same values (issue 34)", async () => {
    expect((await request(fresh("/board/jobs?near=14&radiusKm=12.3456"))).status).toBe(400);
    expect(await parameterAdmits("get", "/api/v1.1/board/jobs", "radiusKm", 12.3456)).toBe(false);
    expect((await request(fresh("/board/jobs?near=14&radiusKm=12.345"))).status).toBe(200);
    expect(await parameterAdmits("get", "/api/v1.1/board/jobs", "radiusKm", 12.345)).toBe(true);
  });

  it("every bad parameter is a 400 naming its member", async () => {
    const cases: [string, string][] = [
      ["near=999999999", "near"],
      ["near=1", "near"], // a province: an area, not a point
      ["near=abc", "near"],
      ["radiusKm=10", "near"],
      ["near=14&radiusKm=0", "radiusKm"],
      ["near=14&radiusKm=501", "radiusKm"],
      ["near=14&radiusKm=ten", "radiusKm"],
      ["near=14&radiusKm=-5", "radiusKm"],
      ["salaryMin=-1", "salaryMin"],
      ["salaryMin=1.5", "salaryMin"],
      ["salaryMin=abc", "salaryMin"],
      ["salaryMin=10000001", "salaryMin"],
    ];
    for (const [query, member] of cases) {
      const res = await request(fresh(`/board/jobs?${query}`));
      expect(res.status, query).toBe(400);
      expect((await problemOf(res)).errors!.map((e: any) => e.field), query).toContain(member);
    }
    expect((await request(fresh("/board/jobs?near=14&radiusKm=500&salaryMin=10000000"))).status).toBe(200);
  });
});

describe("search that stops at the page (EXPLAIN QUERY PLAN)", () => {
  const planOf = async (query: string) => {
    const { capturingD1, requestWith } = await import("./support/d1-proxies");
    const { db, ran } = capturingD1(env.BOARD_DB);
    expect((await requestWith(env.DB, fresh(`/board/jobs?${query}`), { apiKey: "", boardDb: db })).status, query).toBe(200);
    const statement = ran.find((r) => r.sql.includes("LIMIT"))!;
    expect(statement.sql).not.toMatch(/OFFSET|count\(/i);
    return (await env.BOARD_DB.prepare(`EXPLAIN QUERY PLAN ${statement.sql}`).bind(...statement.params).all<{ detail: string }>()).results.map((r) => r.detail);
  };

  it("every source is read in seq order from the cursor: no board query sorts its matches, only the page it took", async () => {
    const cursor = btoa(`s${2 ** 52}`).replace(/=+$/, "");
    for (const [query, source] of [
      [`pageSize=5&cursor=${cursor}`, /^SEARCH d USING INTEGER PRIMARY KEY \(rowid<\?\)/],
      ["q=accountant", /^SCAN board_search VIRTUAL TABLE/],
      ["q=accountant&province=BC&category=1", /^SCAN board_search VIRTUAL TABLE/],
      ["location=21", /^SEARCH d USING COVERING INDEX board_job_places_place_idx/],
      ["province=ON", /^SEARCH d USING (COVERING INDEX sqlite_autoindex_board_job_provinces|PRIMARY KEY)/],
      ["category=3", /^SEARCH d USING (COVERING INDEX sqlite_autoindex_board_job_categories|PRIMARY KEY)/],
    ] as const) {
      const plan = await planOf(query);
      expect(plan.some((step) => source.test(step)), `${query}: ${plan.join(" | ")}`).toBe(true);
      // The one sort allowed: the page's own rows, once they are found (the outer ORDER BY).
      expect(plan.filter((step) => step.startsWith("USE TEMP B-TREE")).length, `${query}: ${plan.join(" | ")}`).toBeLessThanOrEqual(1);
    }
  });
});
