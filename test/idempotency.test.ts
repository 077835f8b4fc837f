import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../src/index";
import { createEmployer, problemOf, request, type TestEmployer } from "./support/api";
import { jobBody } from "./support/jobs";

// DESIGN 11: Idempotency-Key on POST /jobs.

const post = (who: TestEmployer, key: string | undefined, json: unknown) =>
  request("/jobs", { method: "POST", apiKey: who.apiKey, json, headers: key === undefined ? {} : { "Idempotency-Key": key } });

const jobCount = async (employerId: number) =>
  (await env.DB.prepare("SELECT count(*) AS n FROM jobs WHERE employer_id = ?").bind(employerId).first<{ n: number }>())!.n;

describe("Idempotency-Key on POST /jobs", () => {
  it("a repeat with the same key and body answers the first response again — status, body, Location, ETag — with Idempotent-Replayed: true, and creates nothing", async () => {
    const employer = await createEmployer();
    const first = await post(employer, "retry-1", jobBody({ title: "Once" }));
    expect(first.status).toBe(201);
    expect(first.headers.get("Idempotent-Replayed")).toBeNull();
    const firstBody = await first.text();
    // The job changes meanwhile: the replay is still the first answer, not the job as it is now.
    await request(`/jobs/${JSON.parse(firstBody).id}`, { method: "PUT", apiKey: employer.apiKey, json: { title: "Changed since" } });

    const again = await post(employer, "retry-1", jobBody({ title: "Once" }));
    expect(again.status).toBe(201);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await again.text()).toBe(firstBody);
    expect(again.headers.get("Location")).toBe(first.headers.get("Location"));
    expect(again.headers.get("ETag")).toBe(first.headers.get("ETag"));
    expect(await jobCount(employer.employerId)).toBe(1);
  });

  it("the body is compared as parsed JSON: member order and spacing do not matter", async () => {
    const employer = await createEmployer();
    const body = jobBody({ title: "Ordered" });
    expect((await post(employer, "order-1", body)).status).toBe(201);
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const res = await request("/jobs", {
      method: "POST",
      apiKey: employer.apiKey,
      headers: { "Idempotency-Key": "order-1", "Content-Type": "application/json" },
      body: JSON.stringify(reordered, null, 2),
    });
    expect(res.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await jobCount(employer.employerId)).toBe(1);
  });

  it("the same key with a different body: 422 /problems/idempotency-key-reused", async () => {
    const employer = await createEmployer();
    await post(employer, "reuse-1", jobBody({ title: "A" }));
    const res = await post(employer, "reuse-1", jobBody({ title: "B" }));
    expect(res.status).toBe(422);
    expect((await problemOf(res)).type).toBe("/problems/idempotency-key-reused");
    expect(await jobCount(employer.employerId)).toBe(1);
  });

  it("a repeat while the first is still being processed: 409 /problems/idempotency-key-in-flight", async () => {
    const employer = await createEmployer();
    const body = jobBody({ title: "Slow" });
    // The first request holds the key (as while it runs): its record says processing.
    const { requestHash } = await import("../src/idempotency/rules");
    await env.DB.prepare(
      "INSERT INTO idempotency_keys (employer_id, key, request_hash, holder, state, created_at) VALUES (?, 'flight-1', ?, 'other-request', 'processing', ?)",
    )
      .bind(employer.employerId, await requestHash("POST /jobs", body), Math.floor(Date.now() / 1000))
      .run();
    const res = await post(employer, "flight-1", body);
    expect(res.status).toBe(409);
    expect((await problemOf(res)).type).toBe("/problems/idempotency-key-in-flight");
  });

  it("20 simultaneous POSTs with one key: one job; every other answer is a replay of it or a 409", async () => {
    const employer = await createEmployer();
    const answers = await Promise.all(Array.from({ length: 20 }, () => post(employer, "burst-1", jobBody({ title: "Burst" }))));
    const created = answers.filter((res) => res.status === 201 && !res.headers.get("Idempotent-Replayed"));
    const replays = answers.filter((res) => res.headers.get("Idempotent-Replayed") === "true");
    const inFlight = answers.filter((res) => res.status === 409);
    expect(created).toHaveLength(1);
    expect(replays.length + inFlight.length).toBe(19);
    const id = (await created[0].json<any>()).id;
    for (const replay of replays) expect((await replay.json<any>()).id).toBe(id);
    expect(await jobCount(employer.employerId)).toBe(1);
  });

  it("keys are scoped to the employer: another employer's same key is a new request", async () => {
    const [a, b] = [await createEmployer(), await createEmployer()];
    expect((await post(a, "shared-key", jobBody())).status).toBe(201);
    const other = await post(b, "shared-key", jobBody());
    expect(other.status).toBe(201);
    expect(other.headers.get("Idempotent-Replayed")).toBeNull();
    expect((await other.json<any>()).employer.id).toBe(b.employerId);
  });

  it("a key sent as the draft's quoted string is the same key as sent bare", async () => {
    const employer = await createEmployer();
    await post(employer, "quoted-1", jobBody());
    const res = await post(employer, '"quoted-1"', jobBody());
    expect(res.headers.get("Idempotent-Replayed")).toBe("true");
  });

  it("a key that is not 1 to 255 printable ASCII characters: 400, nothing created", async () => {
    const employer = await createEmployer();
    for (const key of ["", "x".repeat(256), "caf\u00e9", "two words\u0001", '"unclosed']) {
      const res = await post(employer, key, jobBody());
      expect(res.status, JSON.stringify(key)).toBe(400);
    }
    expect(await jobCount(employer.employerId)).toBe(0);
  });

  it("4xx answers are not remembered: the client fixes the body and retries with the same key", async () => {
    const employer = await createEmployer();
    const bad = await post(employer, "fix-1", jobBody({ categories: [] }));
    expect(bad.status).toBe(400);
    const fixed = await post(employer, "fix-1", jobBody());
    expect(fixed.status).toBe(201);
    expect(fixed.headers.get("Idempotent-Replayed")).toBeNull();
  });

  it("keys are remembered 24 hours: the cron removes older ones, set-based, and the key is new again", async () => {
    const employer = await createEmployer();
    expect((await post(employer, "day-old", jobBody())).status).toBe(201);
    const now = Math.floor(Date.now() / 1000);
    await worker.scheduled({ cron: "0 * * * *", scheduledTime: (now + 86_400 + 60) * 1000 } as ScheduledController, env);
    const { n } = (await env.DB.prepare("SELECT count(*) AS n FROM idempotency_keys WHERE employer_id = ?").bind(employer.employerId).first<{ n: number }>())!;
    expect(n).toBe(0);
    const again = await post(employer, "day-old", jobBody());
    expect(again.status).toBe(201);
    expect(again.headers.get("Idempotent-Replayed")).toBeNull();
    expect(await jobCount(employer.employerId)).toBe(2);
  });
});
