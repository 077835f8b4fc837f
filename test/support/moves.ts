import { expect } from "vitest";
import { MOVED_TABLES } from "../../src/shards/move-plan";
import { createEmployer, createTestKey, request, shardDb } from "./api";
import { eventually, settleBoard } from "./board";
import { postJob } from "./jobs";

// DESIGN 22, 22b: what the tests of moving an employer between shards share (test/shards-move.test.ts,
// the command's move; test/shards-online-move.test.ts, the Worker's).

export const rowsIn = async (shard: number, sql: string, ...params: unknown[]) => (await shardDb(shard).prepare(sql).bind(...params).all()).results;
export const countIn = async (shard: number, sql: string, ...params: unknown[]) =>
  (await shardDb(shard).prepare(`SELECT count(*) AS n FROM ${sql}`).bind(...params).first<{ n: number }>())!.n;

let address = 0;
/** A client address of its own per application (the apply limiter counts per address). */
export const fromAddress = () => ({ "CF-Connecting-IP": `10.23.${Math.floor(++address / 200)}.${address % 200}` });

/** The keys' last use is recorded after the answers (once an hour per key): waits until it is, so that a snapshot taken next stays as it is. */
export async function keysUsed(shard: number, ids: number[]) {
  await eventually(async () => expect(await countIn(shard, `api_keys WHERE employer_id IN (${ids.join(", ")}) AND last_used_at IS NULL`)).toBe(0));
}

/** Every moved table's rows of these employers, as each shard has them (rowid left out: each shard numbers its own). */
export async function snapshot(shard: number, ids: number[]) {
  const list = ids.join(", ");
  const tables: Record<string, unknown[]> = {};
  for (const table of MOVED_TABLES) {
    const rows = await rowsIn(shard, `SELECT * FROM ${table.table} WHERE ${table.rows(list)}`);
    tables[table.table] = rows
      .map((row) => Object.fromEntries(Object.entries(row as Record<string, unknown>).filter(([column]) => !table.ownColumns?.includes(column))))
      .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  }
  return tables;
}

/** An employer with something in every moved table: jobs (one with a place of its own and a long description), a webhook and its messages, applications with their history and emails, a view, a notice, a report, idempotency records, a test space with a job. */
export async function populatedEmployer(shard = 0) {
  const employer = await createEmployer({ name: `Movable ${shard} ${crypto.randomUUID().slice(0, 6)}`, shard });
  const testKey = await createTestKey(employer);
  const hook = await request("/webhooks", { method: "POST", apiKey: employer.apiKey, json: { url: "https://receiver.example/moves" } });
  expect(hook.status).toBe(201);
  const job = await postJob(employer, {
    title: "Moving Clerk",
    status: "active",
    referenceId: `MOVE-${crypto.randomUUID()}`,
    locations: [{ description: "Smalltown Nowhere, NS" }],
    applicantRoutingType: { id: 1 },
    applicationEmail: "hr@moving.example",
    description: `<p>${"Long description. ".repeat(2_000)}</p>`,
  });
  const created = await request("/jobs", {
    method: "POST",
    apiKey: employer.apiKey,
    json: { title: "Second Desk", locations: [{ description: "Vancouver, BC" }], categories: [{ id: 1 }] },
    headers: { "Idempotency-Key": crypto.randomUUID() },
  });
  expect(created.status).toBe(201);
  const testJob = await postJob(testKey, { title: "Rehearsal", status: "active", applicantRoutingType: { id: 1 }, applicationEmail: "hr@moving.example" });
  await settleBoard();
  const applied = await request(`/board/jobs/${job.id}/applications`, { method: "POST", json: { name: "Ada Mover", email: "ada@example.com" }, headers: fromAddress() });
  expect(applied.status).toBe(201);
  const application = await applied.json<any>();
  const moved = await request(`/applications/${application.id}`, { method: "PUT", apiKey: employer.apiKey, json: { status: "reviewing" } });
  expect(moved.status).toBe(200);
  const testApplied = await request(`/jobs/${testJob.id}/applications/test`, { method: "POST", apiKey: testKey.apiKey, json: { name: "Test Applicant", email: "t@example.com" } });
  expect(testApplied.status).toBe(201);
  const db = shardDb(shard);
  await db.prepare("INSERT INTO job_views (job_id, day, views) VALUES (?, 20000, 3)").bind(job.id).run();
  await db.prepare("INSERT INTO job_expiry_notices (job_id, close_date) SELECT id, close_date FROM jobs WHERE id = ?").bind(job.id).run();
  await db.prepare("INSERT INTO job_reports (job_id, reason, details, email, created_at) VALUES (?, 'other', 'Moves a lot.', NULL, ?)").bind(job.id, Date.now()).run();
  await db
    .prepare(
      `INSERT INTO webhook_messages (id, event_id, employer_id, endpoint_id, type, occurred_at, data, status, attempts, next_attempt_at, enqueued_at, created_at)
       VALUES (?, NULL, ?, ?, 'webhook.test', ?, '{}', 'delivered', 1, NULL, ?, ?)`,
    )
    .bind(`msg_${crypto.randomUUID().replaceAll("-", "")}`, employer.employerId, (await hook.json<any>()).id, Date.now(), Date.now(), Date.now())
    .run();
  // The applications' emails go out after their answers: the snapshot a test takes is what a move finds once they have.
  const owners = [employer.employerId, testKey.employerId];
  await eventually(async () =>
    expect(
      (await countIn(shard, "applications WHERE employer_id IN (?, ?) AND email_status = 'pending'", ...owners)) +
        (await countIn(shard, "applicant_emails e JOIN applications a ON a.id = e.application_id WHERE a.employer_id IN (?, ?) AND e.status = 'pending'", ...owners)),
    ).toBe(0),
  );
  return { employer, testKey, job, testJob, application };
}
