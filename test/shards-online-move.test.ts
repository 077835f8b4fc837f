import { abortAllDurableObjects } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { MOVED_TABLES } from "../src/shards/move-plan";
import { moveProgress, MoveRefused, startMove, type MoveStatus } from "../src/shards/moves";
import { createEmployer, createTestKey, request, shardDb, type TestEmployer } from "./support/api";
import { eventually } from "./support/board";
import { jobBody, postJob } from "./support/jobs";
import { countIn, fromAddress, keysUsed, populatedEmployer, rowsIn, snapshot } from "./support/moves";

// DESIGN 22b: moves the employer barely notices. The Worker moves an employer (its test space
// with it) in a Durable Object, in bounded alarm steps: a copy while it keeps writing, catch-up
// rounds from the source's record of changes, a freeze of at most seconds for the last round,
// the checks and the flip, then the source cleaned up.

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls the move until it is done (or failed): its last status. */
async function finished(employerId: number, timeoutMs = 90_000): Promise<MoveStatus> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = (await moveProgress(env, employerId))!;
    if (status.stage === "done" || status.stage === "failed") return status;
    if (Date.now() > deadline) throw new Error(`the move is still ${status.stage}: ${JSON.stringify(status)}`);
    await sleep(20);
  }
}

/** `count` jobs more, made by the batch endpoint (DESIGN 12), 100 a request; their ids. */
async function moreJobs(employer: TestEmployer, count: number): Promise<number[]> {
  const ids: number[] = [];
  for (let done = 0; done < count; done += 100) {
    const upsert = Array.from({ length: Math.min(100, count - done) }, (_, i) => ({ referenceId: `BULK-${crypto.randomUUID()}`, ...jobBody({ title: `Bulk Clerk ${done + i}` }) }));
    const res = await request("/jobs/batch", { method: "POST", apiKey: employer.apiKey, json: { upsert } });
    expect(res.status).toBe(200);
    const { results } = await res.json<any>();
    expect(results.every((result: any) => result.status === 201)).toBe(true);
    ids.push(...results.map((result: any) => result.job.id));
  }
  return ids;
}

/** Between two rounds of a writer's requests: each writes about 20 times a second. */
const PACE_MS = 50;

interface Answer {
  op: string;
  status: number;
  at: number;
  retryAfter: string | null;
  type: string | null;
}

/**
 * A client of `employer` that keeps reading a job and writing (a title changed, a job created
 * with an Idempotency-Key), sending a refused write again after Retry-After, as a client does,
 * until stopped. It keeps every answer, the title each job was last given, the jobs it created.
 */
function keepWriting(employer: TestEmployer, jobIds: number[]) {
  const answers: Answer[] = [];
  const titles = new Map<number, string>();
  const created: { id: number; referenceId: string }[] = [];
  let running = true;
  const send = async (op: string, path: string, init: Parameters<typeof request>[1]) => {
    for (;;) {
      const res = await request(path, { ...init, apiKey: employer.apiKey });
      const type = res.status >= 400 ? ((await res.clone().json<any>()).type as string) : null;
      const answer = { op, status: res.status, at: Date.now(), retryAfter: res.headers.get("Retry-After"), type };
      answers.push(answer);
      if (res.status !== 503) return res;
      await sleep(Number(answer.retryAfter ?? 1) * 1000);
    }
  };
  const done = (async () => {
    for (let n = 0; running; n++) {
      const jobId = jobIds[n % jobIds.length];
      await send("GET", `/jobs/${jobId}`, {});
      if (n % 2 === 0) {
        const title = `Retitled ${n}`;
        const res = await send("PUT", `/jobs/${jobId}`, { method: "PUT", json: { title } });
        if (res.status === 200) titles.set(jobId, title);
      } else {
        const referenceId = `LIVE-${crypto.randomUUID()}`;
        const res = await send("POST", "/jobs", { method: "POST", json: jobBody({ title: `Hired Live ${n}`, referenceId }), headers: { "Idempotency-Key": crypto.randomUUID() } });
        if (res.status === 201) created.push({ id: (await res.json<any>()).id, referenceId });
      }
      // A client's pace (and room for the runtime's timers, the move's pauses among them: this
      // isolate runs the tests, the Worker and its Durable Objects alike).
      await sleep(PACE_MS);
    }
  })();
  return {
    answers,
    titles,
    created,
    stop: async () => {
      running = false;
      await done;
    },
  };
}

/** The employer's jobs in a shard: id → (title, reference). */
const jobsIn = async (shard: number, employerId: number) =>
  new Map(((await rowsIn(shard, "SELECT id, title, reference_id AS referenceId FROM jobs WHERE employer_id = ?", employerId)) as any[]).map((row) => [row.id, row]));

const PDF = new TextEncoder().encode("%PDF-1.7\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n");

describe("a move while the employer and its neighbours of both shards keep writing (DESIGN 22b)", () => {
  it("nothing lost, nothing doubled; its writes refused (503, Retry-After: 1) only in the short frozen window, reads always served; the others never see a 503 or a 5xx; counts and digests verified before the flip", async () => {
    const { employer, testKey, job, application } = await populatedEmployer(0);
    const ids = [employer.employerId, testKey.employerId];
    const bulk = await moreJobs(employer, 300);
    // Applications, one with a résumé (R2 is shared by the shards: its key stays valid).
    const form = new FormData();
    form.set("name", "Grace Résumé");
    form.set("email", "grace@example.com");
    form.set("resume", new File([PDF], "cv.pdf", { type: "application/pdf" }));
    const withResume = await request(`/board/jobs/${job.id}/applications`, { method: "POST", body: form, headers: fromAddress() });
    expect(withResume.status).toBe(201);
    const resumed = (await withResume.json<any>()).id as number;
    for (let i = 0; i < 20; i++) {
      const applied = await request(`/board/jobs/${job.id}/applications`, { method: "POST", json: { name: `Applicant ${i}`, email: `a${i}@example.com` }, headers: fromAddress() });
      expect(applied.status).toBe(201);
    }
    // Their emailed copies go out after the answers: what nobody writes during the move is what is compared after it.
    await eventually(async () => expect(await countIn(0, "applications WHERE employer_id = ? AND email_status = 'pending'", employer.employerId)).toBe(0));
    await keysUsed(0, ids);
    const neighbours = [await createEmployer({ shard: 0 }), await createEmployer({ shard: 1 })];
    const neighbourJobs = await Promise.all(neighbours.map(async (neighbour) => [(await postJob(neighbour)).id as number, (await postJob(neighbour)).id as number]));
    const before = await snapshot(0, ids);
    const jobsBefore = await jobsIn(0, employer.employerId);

    const writers = [keepWriting(employer, [job.id, ...bulk.slice(0, 5)]), ...neighbours.map((neighbour, i) => keepWriting(neighbour, neighbourJobs[i]))];
    await sleep(300);
    const started = await startMove(env, { employerId: employer.employerId, to: 1 });
    expect(started).toMatchObject({ employerId: employer.employerId, from: 0, to: 1, stage: "copying" });
    const status = await finished(employer.employerId);
    await sleep(300);
    await Promise.all(writers.map((writer) => writer.stop()));
    const [mover, ...others] = writers;

    expect(status.stage, JSON.stringify(status.error)).toBe("done");
    expect(status.outcome).toMatchObject({ employerId: employer.employerId, from: 0, to: 1 });
    // Frozen once, for at most 5 s; the catch-up rounds copied what the employer changed meanwhile.
    const flipped = status.freezes.filter((freeze) => freeze.outcome === "flipped");
    expect(flipped).toHaveLength(1);
    expect(status.freezes.reduce((sum, freeze) => sum + freeze.ms, 0)).toBeLessThanOrEqual(5_000);
    expect(status.rounds.length).toBeGreaterThan(0);
    expect(status.synced).toBeGreaterThan(0);

    // The moving employer: written while it was copied, refused only while frozen, read throughout.
    const frozenAt = flipped[0].at;
    expect(mover.answers.filter((answer) => answer.op !== "GET" && answer.status < 300 && answer.at > status.startedAt && answer.at < frozenAt).length).toBeGreaterThan(0);
    const refused = mover.answers.filter((answer) => answer.status === 503);
    for (const answer of refused) {
      expect(answer).toMatchObject({ retryAfter: "1", type: "/problems/employer-moving" });
      expect(status.freezes.some((freeze) => answer.at >= freeze.at && answer.at <= freeze.at + freeze.ms + 1_000), JSON.stringify({ answer, freezes: status.freezes })).toBe(true);
    }
    if (refused.length) expect(refused.at(-1)!.at - refused[0].at).toBeLessThanOrEqual(5_000);
    expect(mover.answers.filter((answer) => answer.status !== 503).every((answer) => [200, 201].includes(answer.status)), JSON.stringify(mover.answers.filter((a) => a.status >= 300))).toBe(true);
    expect(mover.answers.filter((answer) => answer.op === "GET").every((answer) => answer.status === 200)).toBe(true);
    // Its neighbours in both shards never noticed.
    for (const other of others) {
      expect(other.answers.length).toBeGreaterThan(0);
      expect(other.answers.filter((answer) => answer.status >= 300), "a neighbour's answers").toEqual([]);
    }

    // Nothing lost, nothing doubled: every job it had and made is in shard 1 once, with its last title.
    const moved = await jobsIn(1, employer.employerId);
    expect(moved.size).toBe(jobsBefore.size + mover.created.length);
    for (const id of jobsBefore.keys()) expect(moved.has(id), `job ${id}`).toBe(true);
    for (const { id, referenceId } of mover.created) expect(moved.get(id)?.referenceId).toBe(referenceId);
    for (const [id, title] of mover.titles) expect(moved.get(id)?.title).toBe(title);
    expect(await countIn(1, "idempotency_keys WHERE employer_id = ?", employer.employerId)).toBe(before.idempotency_keys.length + mover.created.length);
    for (const [i, neighbour] of neighbours.entries()) {
      const theirs = await jobsIn(neighbour.shard, neighbour.employerId);
      expect(theirs.size).toBe(2 + others[i].created.length);
      for (const [id, title] of others[i].titles) expect(theirs.get(id)?.title).toBe(title);
    }
    // What nobody wrote meanwhile is as it was; shard 0 keeps only the tombstones.
    const after = await snapshot(1, ids);
    const untouched = MOVED_TABLES.map(({ table }) => table).filter((table) => !["jobs", "job_locations", "job_categories", "idempotency_keys"].includes(table));
    for (const table of untouched) expect(after[table], table).toEqual(before[table]);
    expect(Object.entries(await snapshot(0, ids)).filter(([table, rows]) => table !== "employers" && rows.length > 0)).toEqual([]);
    expect(await rowsIn(0, "SELECT moved_to AS movedTo, frozen_at AS frozenAt FROM employers WHERE id IN (?, ?)", ...ids)).toEqual(ids.map(() => ({ movedTo: 1, frozenAt: null })));
    expect(await countIn(0, "move_changes WHERE move_of = ?", employer.employerId)).toBe(0);
    expect(await countIn(0, "move_capture WHERE move_of = ?", employer.employerId)).toBe(0);
    expect(await countIn(0, "resume_deletions")).toBe(0);
    // Its counters and its list's search index followed its jobs (the jobs triggers keep them in both shards).
    expect(await rowsIn(1, "SELECT sum(total) AS n FROM job_counts WHERE employer_id = ?", employer.employerId)).toEqual([{ n: moved.size }]);
    expect(await countIn(0, "job_counts WHERE employer_id = ?", employer.employerId)).toBe(0);
    for (const shard of [0, 1]) await shardDb(shard).prepare("INSERT INTO job_search (job_search, rank) VALUES ('integrity-check', 0)").run();
    // What the freeze verified is what shard 1 held at the flip: the same, but the jobs written after it.
    for (const table of untouched) expect(status.verified![table], table).toBe(after[table].length);
    expect(status.verified!.jobs).toBeGreaterThanOrEqual(before.jobs.length);
    expect(status.verified!.jobs).toBeLessThanOrEqual(after.jobs.length);
    expect(status.verified!.job_locations).toBe(status.verified!.jobs);
    expect(status.outcome!.rows).toBe(Object.values(status.verified!).reduce((sum, n) => sum + n, 0));
    // The résumé is read where the employer lives now, under the same key.
    const file = await request(`/applications/${resumed}/resume`, { apiKey: employer.apiKey, undocumented: true });
    expect(file.status).toBe(200);
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(PDF);
    expect((await request(`/applications/${application.id}`, { apiKey: employer.apiKey })).status).toBe(200);
  }, 180_000);
});

describe("a move survives a crash (DESIGN 22b: each step recorded in its storage)", () => {
  it("the Durable Object aborted in the middle of the copy: started again, the same move resumes and finishes, every row once, digests verified", async () => {
    const employer = await createEmployer({ shard: 0 });
    const testKey = await createTestKey(employer);
    await postJob(testKey, { title: "Rehearsal" });
    await moreJobs(employer, 300);
    // Long descriptions: the copy takes many pages, so that it is caught half way.
    await shardDb(0).prepare("UPDATE jobs SET description = ? WHERE employer_id = ?").bind(`<p>${"A long description of the job. ".repeat(2_000)}</p>`, employer.employerId).run();
    const ids = [employer.employerId, testKey.employerId];
    await keysUsed(0, ids);
    const before = await snapshot(0, ids);
    const rows = Object.values(before).reduce((sum, tableRows) => sum + tableRows.length, 0);

    const first = await startMove(env, { employerId: employer.employerId, to: 1 });
    for (;;) {
      const status = (await moveProgress(env, employer.employerId))!;
      expect(status.stage).toBe("copying");
      if (status.copied >= 30) break;
      await sleep(5);
    }
    await abortAllDurableObjects();
    const stopped = (await moveProgress(env, employer.employerId))!;
    expect(stopped).toMatchObject({ stage: "copying", startedAt: first.startedAt });
    expect(stopped.copied).toBeLessThan(rows);
    expect(await countIn(1, "jobs WHERE employer_id = ?", employer.employerId)).toBeGreaterThan(0);
    expect(await rowsIn(0, "SELECT frozen_at AS frozenAt FROM employers WHERE id = ?", employer.employerId)).toEqual([{ frozenAt: null }]);

    // Meanwhile a move elsewhere is refused; asked again, the same move goes on.
    await expect(startMove(env, { employerId: employer.employerId, to: 0 })).rejects.toThrow(/being moved to shard 1 \(stage copying\)/);
    const again = await startMove(env, { employerId: employer.employerId, to: 1 });
    expect(again.startedAt).toBe(first.startedAt);

    const status = await finished(employer.employerId);
    expect(status.stage, JSON.stringify(status.error)).toBe("done");
    expect(await snapshot(1, ids)).toEqual(before);
    expect(Object.entries(await snapshot(0, ids)).filter(([table, tableRows]) => table !== "employers" && tableRows.length > 0)).toEqual([]);
    expect(status.verified).toEqual(Object.fromEntries(MOVED_TABLES.map(({ table }) => [table, before[table].length])));
    expect(status.outcome!.rows).toBe(rows);
    // Asked again once done, the same answer; the employer reached where it lives.
    expect(await startMove(env, { employerId: employer.employerId, to: 1 })).toMatchObject({ stage: "done", startedAt: first.startedAt });
    expect((await request("/jobs?pageSize=1", { apiKey: employer.apiKey })).status).toBe(200);
  }, 180_000);
});

describe("the checks before the flip (DESIGN 22b: counts and digests)", () => {
  it("what an earlier move left in the target (a job the employer no longer has, a category its job lost) is found by the digests and deleted before the flip: the target then holds exactly the source's rows", async () => {
    const employer = await createEmployer({ shard: 0 });
    const kept = await postJob(employer, { title: "Kept Clerk", categories: [{ id: 1 }] });
    await keysUsed(0, [employer.employerId]);
    const before = await snapshot(0, [employer.employerId]);
    const target = shardDb(1);
    const [employerRow] = (await rowsIn(0, "SELECT * FROM employers WHERE id = ?", employer.employerId)) as Record<string, unknown>[];
    const [jobRow] = (await rowsIn(0, "SELECT * FROM jobs WHERE id = ?", kept.id)) as Record<string, unknown>[];
    const insert = (table: string, row: Record<string, unknown>) =>
      target.prepare(`INSERT INTO ${table} (${Object.keys(row).join(", ")}) VALUES (${Object.keys(row).map(() => "?").join(", ")})`).bind(...Object.values(row));
    // As a move stopped long ago left them: the employer's row locked toward shard 0, a stale job, one it deleted since, an extra category.
    await target.batch([
      insert("employers", employerRow),
      insert("jobs", { ...jobRow, title: "Stale Clerk" }),
      insert("jobs", { ...jobRow, id: kept.id + 1_000, reference_id: null, title: "Deleted Since" }),
      insert("job_categories", { job_id: kept.id, category_id: 2, position: 1 }),
      target.prepare("UPDATE employers SET moved_to = 0 WHERE id = ?").bind(employer.employerId),
    ]);

    await startMove(env, { employerId: employer.employerId, to: 1 });
    const status = await finished(employer.employerId);
    expect(status.stage, JSON.stringify(status.error)).toBe("done");
    expect(status.synced).toBeGreaterThanOrEqual(2);
    expect(await snapshot(1, [employer.employerId])).toEqual(before);
    expect(await countIn(1, "jobs WHERE id = ?", kept.id + 1_000)).toBe(0);
    expect(status.verified).toMatchObject({ jobs: 1, job_categories: 1 });
  });
});

describe("a frozen employer's writes (DESIGN 22b)", () => {
  it("answer 503 /problems/employer-moving with Retry-After: 1, nothing stored; its reads answer 200", async () => {
    const employer = await createEmployer({ shard: 0 });
    const job = await postJob(employer, { title: "Held Still" });
    await shardDb(0).prepare("UPDATE employers SET frozen_at = ? WHERE id = ?").bind(Date.now(), employer.employerId).run();
    const refused = await request(`/jobs/${job.id}`, { method: "PUT", apiKey: employer.apiKey, json: { title: "Not Now" } });
    expect(refused.status).toBe(503);
    expect(refused.headers.get("Retry-After")).toBe("1");
    expect((await refused.json<any>()).type).toBe("/problems/employer-moving");
    const read = await request(`/jobs/${job.id}`, { apiKey: employer.apiKey });
    expect(read.status).toBe(200);
    expect((await read.json<any>()).title).toBe("Held Still");
    await shardDb(0).prepare("UPDATE employers SET frozen_at = NULL WHERE id = ?").bind(employer.employerId).run();
  });
});

describe("starting a move refuses clearly what it cannot do (DESIGN 22a, 22b)", () => {
  it("not an id, no such shard, an unknown employer, a test space's id, the shard it lives in: MoveRefused, nothing started", async () => {
    const employer = await createEmployer({ shard: 0 });
    const space = await createTestKey(employer);
    await expect(startMove(env, { employerId: 0, to: 1 })).rejects.toThrow(MoveRefused);
    await expect(startMove(env, { employerId: employer.employerId, to: 7 })).rejects.toThrow(/No shard 7/);
    await expect(startMove(env, { employerId: 987_654, to: 1 })).rejects.toThrow(/No employer 987654/);
    await expect(startMove(env, { employerId: space.employerId, to: 1 })).rejects.toThrow(new RegExp(`test space of employer ${employer.employerId}`));
    await expect(startMove(env, { employerId: employer.employerId, to: 0 })).rejects.toThrow(/already lives in shard 0/);
    expect(await moveProgress(env, employer.employerId)).toBeNull();
    expect(await countIn(0, "move_capture WHERE move_of = ?", employer.employerId)).toBe(0);
  });
});

describe("the source records every change of a moving employer's rows (drizzle/0030)", () => {
  it("every moved table has its capture triggers, for inserts, updates and deletes", async () => {
    const names = new Set(((await rowsIn(0, "SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE '%_move_%'")) as { name: string }[]).map((row) => row.name));
    const missing = MOVED_TABLES.flatMap(({ table }) => ["insert", "update", "delete"].map((op) => `${table}_move_${op}`)).filter((name) => !names.has(name));
    expect(missing).toEqual([]);
  });
});
