import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { hashApiKey } from "../src/auth/api-keys";
import { LEFT_BEHIND, MOVED_TABLES } from "../src/shards/move-plan";
import { moveProgress, startMove, MoveRefused, type MoveStatus } from "../src/shards/moves";
import { repairAtOnce, repairBoard } from "../src/board/reconcile";
import { atShard } from "../src/shards/bindings";
import { consumeViewsBatch } from "../src/stats/consumer";
import { consumeWebhookBatch } from "../src/webhooks/consumer";
import { BASE, createEmployer, createTestKey, request, shardDb } from "./support/api";
import { countIn, fromAddress, keysUsed, populatedEmployer, rowsIn, snapshot } from "./support/moves";
import { postJob } from "./support/jobs";
import { queueBatch, recordingQueue } from "./support/webhook-queue";

// DESIGN 22, 22a, 22b: what a move of an employer (its test space with it) between shards leaves
// behind it — every row where it now lives, the tombstone where it lived — and how requests,
// the public side and the queues reach it afterwards. The move is the Worker's
// (src/shards/moves.ts: the EmployerMove Durable Object, as the operator's routes start it),
// followed here to its end; test/shards-online-move.test.ts tests the move while it runs.

/** Moves the employer to shard `to` and waits until the move is done: its last status. */
async function move(employerId: number, to: number): Promise<MoveStatus> {
  await startMove(env, { employerId, to });
  const deadline = Date.now() + 60_000;
  for (;;) {
    const status = (await moveProgress(env, employerId))!;
    if (status.stage === "failed") throw new Error(`the move failed: ${status.error?.message}`);
    if (status.stage === "done" && status.to === to) return status;
    if (Date.now() > deadline) throw new Error(`the move is still ${status.stage}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The employer (its test space with it) frozen as a move's last seconds freeze it, or thawed. */
const setFrozen = (shard: number, employerId: number, frozen: boolean) =>
  shardDb(shard).prepare("UPDATE employers SET frozen_at = ? WHERE id = ? OR test_of = ?").bind(frozen ? Date.now() : null, employerId, employerId).run();

describe("the move's plan covers every employer-side table (DESIGN 22)", () => {
  it("every table naming an employer, a job or an application is moved, or left behind for a stated reason", async () => {
    const { results } = await env.DB.prepare(
      `SELECT m.name AS tableName, group_concat(p.name) AS columns FROM sqlite_master m JOIN pragma_table_info(m.name) p
       WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' AND m.name NOT LIKE 'd1_%' AND m.name NOT LIKE '_cf_%'
         AND p.name IN ('employer_id', 'owner_employer_id', 'job_id', 'application_id', 'test_of') GROUP BY m.name`,
    ).all<{ tableName: string }>();
    const covered = new Set([...MOVED_TABLES.map((table) => table.table), ...Object.keys(LEFT_BEHIND)]);
    expect(results.map((row) => row.tableName).filter((table) => !covered.has(table))).toEqual([]);
  });
});

describe("moving an employer from shard 0 to 1 and back (DESIGN 22, 22a)", () => {
  it("every row is in the target with the same ids, the source holds only the tombstone; nothing of another employer of either shard changes", async () => {
    const { employer, testKey } = await populatedEmployer(0);
    const bystanders = [await populatedEmployer(0), await populatedEmployer(1)];
    const ids = [employer.employerId, testKey.employerId];
    await keysUsed(0, ids);
    for (const b of bystanders) await keysUsed(b.employer.shard, [b.employer.employerId, b.testKey.employerId]);
    const before = await snapshot(0, ids);
    const others = await Promise.all(bystanders.map((b) => snapshot(b.employer.shard, [b.employer.employerId, b.testKey.employerId])));
    expect(before.jobs.length).toBe(3);
    for (const table of MOVED_TABLES) expect(before[table.table].length, table.table).toBeGreaterThan(0);

    const { outcome, verified } = await move(employer.employerId, 1);
    expect(outcome).toMatchObject({ employerId: employer.employerId, from: 0, to: 1 });
    expect(outcome!.rows).toBe(Object.values(before).reduce((sum, rows) => sum + rows.length, 0));
    expect(verified).toEqual(Object.fromEntries(Object.entries(before).map(([table, rows]) => [table, rows.length])));

    expect(await snapshot(1, ids)).toEqual(before);
    const left = await snapshot(0, ids);
    expect(Object.entries(left).filter(([table, rows]) => table !== "employers" && rows.length > 0)).toEqual([]);
    expect(await rowsIn(0, "SELECT id, frozen_at AS frozenAt, moved_to AS movedTo FROM employers WHERE id IN (?, ?) ORDER BY id", ...ids)).toEqual(
      ids.map((id) => ({ id, frozenAt: null, movedTo: 1 })),
    );
    expect(await rowsIn(1, "SELECT id, frozen_at AS frozenAt, moved_to AS movedTo FROM employers WHERE id IN (?, ?) ORDER BY id", ...ids)).toEqual(
      ids.map((id) => ({ id, frozenAt: null, movedTo: null })),
    );
    // Its counters moved with its jobs (the jobs triggers kept them), its events stayed in the outbox.
    expect(await countIn(0, "job_counts WHERE employer_id = ?", employer.employerId)).toBe(0);
    expect(await rowsIn(1, "SELECT status, total FROM job_counts WHERE employer_id = ? ORDER BY status", employer.employerId)).toEqual([
      { status: "active", total: 1 },
      { status: "draft", total: 1 },
    ]);
    expect(await countIn(0, "events WHERE employer_id = ?", employer.employerId)).toBeGreaterThan(0);
    expect(await countIn(1, "events WHERE employer_id = ?", employer.employerId)).toBe(0);
    // No résumé of a moved application is listed for the cron to delete.
    expect(await countIn(0, "resume_deletions")).toBe(0);
    // The keys' records name the target.
    expect(await env.API_KEYS.get(await hashApiKey(employer.apiKey), "json")).toEqual({ employerId: employer.employerId, shard: 1 });
    expect(await env.API_KEYS.get(await hashApiKey(testKey.apiKey), "json")).toEqual({ employerId: testKey.employerId, test: true, shard: 1 });
    expect(await Promise.all(bystanders.map((b) => snapshot(b.employer.shard, [b.employer.employerId, b.testKey.employerId])))).toEqual(others);

    // And back, the same way (its rows are all numbered in shard 0's range).
    const back = await move(employer.employerId, 0);
    expect(back.outcome).toMatchObject({ from: 1, to: 0, rows: outcome!.rows });
    expect(await snapshot(0, ids)).toEqual(before);
    expect(Object.entries(await snapshot(1, ids)).filter(([table, rows]) => table !== "employers" && rows.length > 0)).toEqual([]);
    expect(await rowsIn(0, "SELECT moved_to AS movedTo FROM employers WHERE id = ?", employer.employerId)).toEqual([{ movedTo: null }]);
    expect(await rowsIn(1, "SELECT moved_to AS movedTo FROM employers WHERE id = ?", employer.employerId)).toEqual([{ movedTo: 0 }]);
    expect(await env.API_KEYS.get(await hashApiKey(employer.apiKey), "json")).toEqual({ employerId: employer.employerId });
    expect(await Promise.all(bystanders.map((b) => snapshot(b.employer.shard, [b.employer.employerId, b.testKey.employerId])))).toEqual(others);
  }, 120_000);
});

describe("the list's search index follows a move (drizzle/0025: the jobs triggers keep it in both shards)", () => {
  /** An employer's token in job_search's column e, as drizzle/0025 writes it. */
  const tokenOf = (id: number) => String.fromCharCode(0xe000 + Math.floor(id / 4_194_304), 0xe000 + (Math.floor(id / 2_048) % 2_048), 0xe000 + (id % 2_048));
  /** The job ids shard `shard`'s index holds for the employer, in descending rowid order (the list's). */
  const indexedIn = async (shard: number, employerId: number) =>
    (await rowsIn(shard, "SELECT rowid % 2147483648 AS id FROM job_search WHERE job_search MATCH ? ORDER BY rowid DESC", `{e}: "${tokenOf(employerId)}"`)).map((row: any) => row.id);

  it("q finds the moved employer's jobs where it lives, in the list's order with exact totals; its entries leave the shard it left; another employer's jobs with the same term, in either shard, are never listed", async () => {
    const mover = await createEmployer({ shard: 0 });
    const own = [];
    for (let i = 0; i < 5; i++) {
      // One long description, so that the copy takes several pages.
      const description = i === 2 ? `<p>${"Long description. ".repeat(2_000)}</p>` : "<p>Short.</p>";
      own.push(await postJob(mover, { title: `Tidewater Clerk ${i}`, referenceId: `TC-${crypto.randomUUID()}`, status: i % 2 ? "draft" : "active", description }));
    }
    const neighbours = [await createEmployer({ shard: 0 }), await createEmployer({ shard: 1 })];
    for (const neighbour of neighbours) for (let i = 0; i < 3; i++) await postJob(neighbour, { title: `Tidewater Clerk ${i}`, status: "draft" });
    const q = async (apiKey: string, query = "") => (await request(`/jobs?q=tidewater${query}`, { apiKey })).json<any>();
    const before = [await q(mover.apiKey), await q(mover.apiKey, "&status=draft")];
    expect(before[0].data.map((j: any) => j.id)).toEqual(own.map((j) => j.id).reverse());

    await move(mover.employerId, 1);

    expect([await q(mover.apiKey), await q(mover.apiKey, "&status=draft")]).toEqual(before);
    expect(before.map((body) => body.paging.total)).toEqual([5, 2]);
    expect(await indexedIn(1, mover.employerId)).toEqual(own.map((j) => j.id).reverse());
    expect(await indexedIn(0, mover.employerId)).toEqual([]);
    for (const neighbour of neighbours) {
      const theirs = await q(neighbour.apiKey);
      expect(theirs.paging.total).toBe(3);
      expect(theirs.data.every((j: any) => j.employer.id === neighbour.employerId)).toBe(true);
    }
    for (const shard of [0, 1]) await shardDb(shard).prepare("INSERT INTO job_search (job_search, rank) VALUES ('integrity-check', 0)").run();
  });
});

describe("requests reach the employer wherever it lives (DESIGN 22: a stale route follows moved_to)", () => {
  it("after a move, its API key works for GET, PUT and lists, with its record cached before the move and with a KV record still naming the old shard", async () => {
    const { employer, testKey, job } = await populatedEmployer(0);
    // Cached in this isolate with shard 0 before the move (the cache keeps a record 60 s).
    expect((await request(`/jobs/${job.id}`, { apiKey: employer.apiKey })).status).toBe(200);
    await move(employer.employerId, 1);
    const stale = `test_${crypto.randomUUID()}`;
    await env.API_KEYS.put(await hashApiKey(stale), JSON.stringify({ employerId: employer.employerId }));
    let title = "Moving Clerk";
    for (const apiKey of [employer.apiKey, stale]) {
      const read = await request(`/jobs/${job.id}`, { apiKey });
      expect(read.status, apiKey).toBe(200);
      expect((await read.json<any>()).title).toBe(title);
      const list = await (await request("/jobs?pageSize=10", { apiKey })).json<any>();
      expect(list.paging.total).toBe(apiKey === stale ? 3 : 2);
      expect((await (await request("/webhooks", { apiKey })).json<any>()).data.length).toBe(1);
      expect((await (await request("/employer", { apiKey })).json<any>()).name).toBe(employer.name);
      title = `Moved Clerk ${apiKey.slice(-4)}`;
      const put = await request(`/jobs/${job.id}`, { method: "PUT", apiKey, json: { title } });
      expect(put.status).toBe(200);
      expect(await rowsIn(1, "SELECT title FROM jobs WHERE id = ?", job.id)).toEqual([{ title }]);
      const created = await request("/jobs", { method: "POST", apiKey, json: { title: "Hired After The Move", locations: [{ description: "Vancouver, BC" }], categories: [{ id: 1 }] } });
      expect(created.status).toBe(201);
      expect(await countIn(1, "jobs WHERE id = ?", (await created.json<any>()).id)).toBe(1);
    }
    // The test space's key too; nothing was written to the shard it left.
    expect((await request("/jobs", { apiKey: testKey.apiKey })).status).toBe(200);
    expect(await countIn(0, "jobs WHERE employer_id = ?", employer.employerId)).toBe(0);
  });

  it("a request its key's stale record routes to the shard the employer left while the move still deletes its rows there is served where it lives: a job whose places are gone already is never read there", async () => {
    const { employer, job } = await populatedEmployer(0);
    expect((await request(`/jobs/${job.id}`, { apiKey: employer.apiKey })).status).toBe(200);
    const [row] = await rowsIn(0, "SELECT * FROM jobs WHERE id = ?", job.id);
    await move(employer.employerId, 1);
    // The source as the move's cleaning leaves it for a moment: the job's places and categories
    // deleted, the job's row not yet (the cleaning unlocks the tombstone for its batch alone, as here).
    const source = shardDb(0);
    const columns = Object.keys(row);
    await source.batch([
      source.prepare("UPDATE employers SET moved_to = NULL WHERE id = ?").bind(employer.employerId),
      source.prepare(`INSERT INTO jobs (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`).bind(...Object.values(row)),
      source.prepare("UPDATE employers SET moved_to = 1 WHERE id = ?").bind(employer.employerId),
    ]);
    const read = await request(`/jobs/${job.id}`, { apiKey: employer.apiKey });
    expect(read.status).toBe(200);
    expect((await read.json<any>()).categories.length).toBeGreaterThan(0);
    const put = await request(`/jobs/${job.id}`, { method: "PUT", apiKey: employer.apiKey, json: { title: "Followed Clerk" } });
    expect(put.status).toBe(200);
    expect(await rowsIn(1, "SELECT title FROM jobs WHERE id = ?", job.id)).toEqual([{ title: "Followed Clerk" }]);
  });

  it("a public application to its job, whose board row still names the old shard, is stored where the employer lives now; its withdraw link, naming the old shard, works", async () => {
    const { employer, job } = await populatedEmployer(0);
    const applied = await request(`/board/jobs/${job.id}/applications`, { method: "POST", json: { name: "Before Move", email: "before@example.com" }, headers: fromAddress() });
    const { id: before } = await applied.json<any>();
    const [{ link }] = (await rowsIn(0, "SELECT withdraw_link AS link FROM applicant_emails WHERE application_id = ?", before)) as { link: string }[];
    await move(employer.employerId, 1);
    const onBoard = await env.BOARD_DB.prepare("SELECT shard FROM board_revisions WHERE job_id = ?").bind(job.id).first<{ shard: number }>();
    expect(onBoard).toEqual({ shard: 0 });
    const after = await request(`/board/jobs/${job.id}/applications`, { method: "POST", json: { name: "After Move", email: "after@example.com" }, headers: fromAddress() });
    expect(after.status).toBe(201);
    const { id } = await after.json<any>();
    expect(await countIn(1, "applications WHERE id = ? AND job_id = ?", id, job.id)).toBe(1);
    expect(await countIn(0, "applications WHERE id = ?", id)).toBe(0);
    const path = new URL(link).pathname;
    expect(path).toMatch(/^\/withdraw\/[A-Za-z0-9_-]{43}$/);
    expect((await request(`https://api.test${path}`, { undocumented: true })).status).toBe(200);
    expect((await request(`https://api.test${path}`, { method: "POST", undocumented: true })).status).toBe(200);
    expect(await rowsIn(1, "SELECT status FROM applications WHERE id = ?", before)).toEqual([{ status: "withdrawn" }]);
  });
});

describe("the public side and the queues reach the employer wherever it lives (DESIGN 22)", () => {
  it("a report from its job's page, a view counted by the views queue: stored where it lives now, the board's row still naming the old shard", async () => {
    const { employer, job } = await populatedEmployer(0);
    await move(employer.employerId, 1);
    const report = new FormData();
    report.set("reason", "fraud");
    report.set("details", "Asks for a fee after the move.");
    const reported = await request(`${BASE}/jobs/${job.id}-moving-clerk/report`, { method: "POST", body: report, redirect: "manual", undocumented: true, headers: fromAddress() });
    expect(reported.status).toBe(303);
    expect(await countIn(1, "job_reports WHERE job_id = ? AND details = 'Asks for a fee after the move.'", job.id)).toBe(1);
    expect(await countIn(0, "job_reports WHERE job_id = ?", job.id)).toBe(0);
    const day = 30_000;
    const views = { queue: "job-posting-views", messages: [{ id: "v1", timestamp: new Date(), attempts: 1, body: [{ jobId: job.id, day, views: 4 }], ack() {}, retry() {} }], ackAll() {}, retryAll() {} };
    await consumeViewsBatch(views as unknown as MessageBatch<never>, env);
    expect(await rowsIn(1, "SELECT views FROM job_views WHERE job_id = ? AND day = ?", job.id, day)).toEqual([{ views: 4 }]);
    expect(await countIn(0, "job_views WHERE job_id = ?", job.id)).toBe(0);
  });

  it("the webhooks fan-out of events still in the old shard's outbox waits while the employer is frozen, then writes their messages where it lives now", async () => {
    const { employer } = await populatedEmployer(0);
    const recorded = ((await rowsIn(0, "SELECT id FROM events WHERE employer_id = ? AND type LIKE 'job.%'", employer.employerId)) as { id: string }[]).map((e) => e.id);
    expect(recorded.length).toBeGreaterThan(0);
    await setFrozen(0, employer.employerId, true);
    {
      const { queue, bodies } = recordingQueue();
      const { batch, outcomes } = queueBatch([{ shard: 0, events: recorded }]);
      await consumeWebhookBatch(batch, { ...env, WEBHOOK_QUEUE: queue });
      expect(outcomes).toEqual([{ id: "notice-0", retryDelay: 30 }]);
      expect(bodies).toEqual([]);
    }
    await setFrozen(0, employer.employerId, false);
    await move(employer.employerId, 1);
    const { queue, bodies } = recordingQueue();
    const { batch, outcomes } = queueBatch([{ shard: 0, events: recorded }]);
    await consumeWebhookBatch(batch, { ...env, WEBHOOK_QUEUE: queue });
    expect(outcomes).toEqual([{ id: "notice-0", ack: true }]);
    const list = recorded.map((id) => `'${id}'`).join(", ");
    expect(await countIn(1, `webhook_messages WHERE event_id IN (${list})`)).toBe(recorded.length);
    expect(await countIn(0, `webhook_messages WHERE event_id IN (${list})`)).toBe(0);
    expect(bodies.map((body) => ("shard" in body ? body.shard : undefined))).toEqual(recorded.map(() => 1));
  });

  it("the board's repair: the old shard keeps the moved employer's board rows (no stray), the new one takes them over", async () => {
    const { employer, job } = await populatedEmployer(0);
    await move(employer.employerId, 1);
    const now = Date.now();
    const shardOfBoardRow = () => env.BOARD_DB.prepare("SELECT shard FROM board_jobs WHERE job_id = ?").bind(job.id).first<{ shard: number }>();
    expect(await shardOfBoardRow()).toEqual({ shard: 0 });
    const old = atShard(env, 0);
    expect((await repairBoard(old, now, { inFlightSeconds: 0, repair: repairAtOnce(old, now) })).removed).toBe(0);
    expect(await shardOfBoardRow()).toEqual({ shard: 0 });
    const moved = atShard(env, 1);
    await repairBoard(moved, now, { inFlightSeconds: 0, repair: repairAtOnce(moved, now) });
    expect(await shardOfBoardRow()).toEqual({ shard: 1 });
  });
});

describe("the keys of an employer (DESIGN 22: its records name the shard it lives in)", () => {
  it("a key its shard does not list (made before the list) is found by listing KV, and its record rewritten", async () => {
    const employer = await createEmployer();
    await env.DB.prepare("DELETE FROM api_keys WHERE employer_id = ?").bind(employer.employerId).run();
    await move(employer.employerId, 1);
    expect(await env.API_KEYS.get(await hashApiKey(employer.apiKey), "json")).toEqual({ employerId: employer.employerId, shard: 1 });
  });
});

describe("while it is frozen, the employer's writes are refused and its reads served (DESIGN 22a, 22b)", () => {
  it("every kind of write answers 503 /problems/employer-moving with Retry-After: 1 and stores nothing; reads answer 200", async () => {
    const { employer, job, application } = await populatedEmployer(0);
    const ids = [employer.employerId];
    await setFrozen(0, employer.employerId, true);
    const before = await snapshot(0, ids);
    const writes: [string, RequestInit & { json?: unknown }][] = [
      ["/jobs", { method: "POST", json: { title: "Frozen Out", locations: [{ description: "Vancouver, BC" }], categories: [{ id: 1 }] } }],
      [`/jobs/${job.id}`, { method: "PUT", json: { title: "Frozen Title" } }],
      [`/jobs/${job.id}`, { method: "DELETE" }],
      ["/employer", { method: "PUT", json: { name: "Frozen Name Ltd." } }],
      ["/webhooks", { method: "POST", json: { url: "https://receiver.example/frozen" } }],
      [`/applications/${application.id}`, { method: "PUT", json: { status: "interviewing" } }],
    ];
    for (const [path, init] of writes) {
      const res = await request(path, { ...init, apiKey: employer.apiKey });
      expect(res.status, `${init.method} ${path}`).toBe(503);
      expect(res.headers.get("Content-Type")).toBe("application/problem+json");
      expect(res.headers.get("Retry-After")).toBe("1");
      expect((await res.json<any>()).type).toBe("/problems/employer-moving");
    }
    const applied = await request(`/board/jobs/${job.id}/applications`, { method: "POST", json: { name: "Frozen Applicant", email: "f@example.com" }, headers: fromAddress() });
    expect(applied.status).toBe(503);
    for (const path of [`/jobs/${job.id}`, "/jobs", "/employer", "/webhooks", `/applications/${application.id}`]) {
      expect((await request(path, { apiKey: employer.apiKey })).status, path).toBe(200);
    }
    expect(await snapshot(0, ids)).toEqual(before);
    await setFrozen(0, employer.employerId, false);
  });

  it("the cron's chunk for the other employers of the shard still changes their jobs while one employer is frozen", async () => {
    const { employer, job } = await populatedEmployer(0);
    const other = await createEmployer();
    const closing = await postJob(other, { title: "Closing Elsewhere", status: "active" });
    const past = Math.floor(Date.now() / 1000) - 60;
    await env.DB.prepare("UPDATE jobs SET close_date = ? WHERE id IN (?, ?)").bind(past, job.id, closing.id).run();
    await setFrozen(0, employer.employerId, true);
    const { exports } = await import("cloudflare:workers");
    const entry = exports.default as unknown as { scheduled(controller: { cron: string; scheduledTime: number }): Promise<void> };
    await entry.scheduled({ cron: "0 * * * *", scheduledTime: Date.now() });
    expect(await rowsIn(0, "SELECT status FROM jobs WHERE id = ?", closing.id)).toEqual([{ status: "archived" }]);
    // The frozen employer's job is left for the next run, in the shard it then lives in.
    expect(await rowsIn(0, "SELECT status FROM jobs WHERE id = ?", job.id)).toEqual([{ status: "active" }]);
    await setFrozen(0, employer.employerId, false);
    // Moved before the next run: the job waits for a run in the shard it then lives in.
    await move(employer.employerId, 1);
    expect(await rowsIn(1, "SELECT status FROM jobs WHERE id = ?", job.id)).toEqual([{ status: "active" }]);
  });
});

describe("a move refuses clearly what it cannot do (DESIGN 22a)", () => {
  it("a row numbered in shard 1's range cannot move to shard 0: shard 0 would number after it, inside shard 1's range", async () => {
    const employer = await createEmployer({ shard: 1 });
    await postJob(employer, { title: "Numbered High" });
    const refused = startMove(env, { employerId: employer.employerId, to: 0 });
    await expect(refused).rejects.toThrow(/numbered in shard 1's range .*It can move to shard 1 or higher/);
    await expect(refused).rejects.toBeInstanceOf(MoveRefused);
    expect(await rowsIn(1, "SELECT frozen_at AS frozenAt FROM employers WHERE id = ?", employer.employerId)).toEqual([{ frozenAt: null }]);
    expect(await countIn(1, "move_capture WHERE move_of = ?", employer.employerId)).toBe(0);
    expect(await moveProgress(env, employer.employerId)).toBeNull();
  });
});
