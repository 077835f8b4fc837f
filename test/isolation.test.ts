import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createEmployer, request, type TestEmployer } from "./support/api";
import { jobBody } from "./support/jobs";
import { expectSafeResponse } from "./support/safety";

// OWASP API1 (broken object level authorization), as a model-based property: random sequences
// of operations by two employers, over a small shared pool of referenceIds so that they
// overlap; after every step the service must agree with a model of who owns what, and neither
// employer can see, change or infer the other's jobs.

const REFS = ["R1", "R2", "R3"];
const NEVER_EXISTED = 2_147_483_647;

type Actor = 0 | 1;
type Op =
  | { k: "create"; actor: Actor; ref: string | null }
  | { k: "upsert"; actor: Actor; ref: string }
  | { k: "read"; actor: Actor; target: number }
  | { k: "update"; actor: Actor; target: number }
  | { k: "rename"; actor: Actor; target: number; ref: string }
  | { k: "delete"; actor: Actor; target: number }
  | { k: "deleteRef"; actor: Actor; ref: string }
  | { k: "list"; actor: Actor; ref: string | null };

const actor = fc.constantFrom<Actor>(0, 1);
const ref = fc.constantFrom(...REFS);
const target = fc.nat({ max: 1000 });
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ k: fc.constant("create" as const), actor, ref: fc.option(ref, { nil: null }) }),
  fc.record({ k: fc.constant("upsert" as const), actor, ref }),
  fc.record({ k: fc.constant("read" as const), actor, target }),
  fc.record({ k: fc.constant("update" as const), actor, target }),
  fc.record({ k: fc.constant("rename" as const), actor, target, ref }),
  fc.record({ k: fc.constant("delete" as const), actor, target }),
  fc.record({ k: fc.constant("deleteRef" as const), actor, ref }),
  fc.record({ k: fc.constant("list" as const), actor, ref: fc.option(ref, { nil: null }) }),
);

interface ModelJob {
  owner: Actor;
  referenceId: string | null;
  title: string;
}

/** The 404 a client gets for an id that never existed: every other 404 must be identical. */
function notFoundShape(problem: Record<string, unknown>) {
  const { type, title, status, detail } = problem;
  return { type, title, status, detail };
}

async function run(ops: Op[], employers: [TestEmployer, TestEmployer]) {
  const model = new Map<number, ModelJob>();
  const seen: number[] = []; // every id ever created in this run, both employers, deleted ones too
  let counter = 0;
  const key = (a: Actor) => employers[a].apiKey;
  // Mostly ids that exist or existed (either employer's), sometimes one that never did.
  const idOf = (t: number) => seen[t % (seen.length + 1)] ?? NEVER_EXISTED;
  const ownRef = (a: Actor, r: string) => [...model].find(([, j]) => j.owner === a && j.referenceId === r)?.[0];
  const call = async (what: string, path: string, init: Parameters<typeof request>[1]) => {
    const res = await request(path, init);
    const text = await expectSafeResponse(res, what);
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
  const never = await call("baseline 404", `/jobs/${NEVER_EXISTED}`, { apiKey: key(0) });
  expect(never.status).toBe(404);
  const recordCreated = (r: { status: number; body: any }, o: { actor: Actor; ref: string | null }, title: string, what: string) => {
    expect(r.status, what).toBe(201);
    model.set(r.body.id, { owner: o.actor, referenceId: o.ref, title });
    seen.push(r.body.id);
  };
  const expect404 = (r: { status: number; body: any }, what: string) => {
    expect(r.status, what).toBe(404);
    // Same type, title and detail as a job that never existed: nothing to infer from.
    expect(notFoundShape(r.body), what).toEqual(notFoundShape(never.body));
  };

  for (const [step, o] of ops.entries()) {
    const what = `step ${step} ${JSON.stringify(o)}`;
    const apiKey = key(o.actor);
    const title = `job ${++counter}`;
    switch (o.k) {
      case "create": {
        const r = await call(what, "/jobs", { method: "POST", apiKey, json: jobBody({ title, referenceId: o.ref }) });
        const existing = o.ref ? ownRef(o.actor, o.ref) : undefined;
        if (existing !== undefined) {
          expect(r.status, what).toBe(409);
          expect(r.body.existingJobId, what).toBe(existing);
        } else {
          recordCreated(r, o, title, what);
        }
        break;
      }
      case "upsert": {
        const r = await call(what, "/jobs", { method: "PUT", apiKey, json: jobBody({ title, referenceId: o.ref }) });
        const existing = ownRef(o.actor, o.ref);
        if (existing !== undefined) {
          expect(r.status, what).toBe(200);
          expect(r.body.id, what).toBe(existing);
          model.get(existing)!.title = title;
        } else {
          recordCreated(r, o, title, what);
        }
        break;
      }
      case "read": {
        const id = idOf(o.target);
        const r = await call(what, `/jobs/${id}`, { apiKey });
        const job = model.get(id);
        if (job?.owner === o.actor) {
          expect(r.status, what).toBe(200);
          expect(r.body, what).toMatchObject({ id, title: job.title, referenceId: job.referenceId, employer: { id: employers[o.actor].employerId } });
        } else expect404(r, what);
        break;
      }
      case "update": {
        const id = idOf(o.target);
        const r = await call(what, `/jobs/${id}`, { method: "PUT", apiKey, json: { title } });
        const job = model.get(id);
        if (job?.owner === o.actor) {
          expect(r.status, what).toBe(200);
          job.title = title;
        } else expect404(r, what);
        break;
      }
      case "rename": {
        const id = idOf(o.target);
        const r = await call(what, `/jobs/${id}`, { method: "PUT", apiKey, json: { referenceId: o.ref } });
        const job = model.get(id);
        const holder = ownRef(o.actor, o.ref);
        if (job?.owner !== o.actor) expect404(r, what);
        else if (holder !== undefined && holder !== id) {
          expect(r.status, what).toBe(409);
          expect(r.body.existingJobId, what).toBe(holder);
        } else {
          expect(r.status, what).toBe(200);
          job.referenceId = o.ref;
        }
        break;
      }
      case "delete": {
        const id = idOf(o.target);
        const r = await call(what, `/jobs/${id}`, { method: "DELETE", apiKey });
        if (model.get(id)?.owner === o.actor) {
          expect(r.status, what).toBe(204);
          model.delete(id);
        } else expect404(r, what);
        break;
      }
      case "deleteRef": {
        const r = await call(what, "/jobs", { method: "DELETE", apiKey, json: { referenceId: o.ref } });
        const existing = ownRef(o.actor, o.ref);
        if (existing !== undefined) {
          expect(r.status, what).toBe(204);
          model.delete(existing);
        } else {
          expect(r.status, what).toBe(404);
        }
        break;
      }
      case "list": {
        const q = o.ref ? `&q=${o.ref.toLowerCase()}` : "";
        const r = await call(what, `/jobs?pageSize=100${q}`, { apiKey });
        const expected = [...model].filter(([, j]) => j.owner === o.actor && (!o.ref || j.referenceId === o.ref));
        expect(r.status, what).toBe(200);
        expect(r.body.paging.total, what).toBe(expected.length);
        expect(r.body.data.map((j: { id: number }) => j.id).sort(), what).toEqual(expected.map(([id]) => id).sort());
        break;
      }
    }

    // After every step, each employer's whole list is exactly its part of the model.
    for (const a of [0, 1] as const) {
      const r = await call(`${what}: list of ${a}`, "/jobs?pageSize=100", { apiKey: key(a) });
      const mine = [...model].filter(([, j]) => j.owner === a);
      expect(r.body.paging.total, `${what}: total of ${a}`).toBe(mine.length);
      const listed = new Map<number, any>(r.body.data.map((j: any) => [j.id, j]));
      expect([...listed.keys()].sort(), `${what}: ids of ${a}`).toEqual(mine.map(([id]) => id).sort());
      for (const [id, j] of mine) {
        expect(listed.get(id), `${what}: job ${id} of ${a}`).toMatchObject({
          title: j.title,
          referenceId: j.referenceId,
          employer: { id: employers[a].employerId },
        });
      }
    }
  }
}

describe("isolation between employers (OWASP API1: broken object level authorization)", () => {
  it("random operations by two employers: neither can see, change, delete or infer the other's jobs (property)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 25 }), async (ops) => {
        await run(ops, [await createEmployer(), await createEmployer()]);
      }),
      { numRuns: 25 },
    );
  }, 60_000);

  it("a 409 names only the caller's own job: the other employer's referenceIds are free to use", async () => {
    const [a, b] = [await createEmployer(), await createEmployer()];
    await run(
      [
        { k: "create", actor: 0, ref: "R1" },
        { k: "create", actor: 1, ref: "R1" },
        { k: "create", actor: 1, ref: "R1" },
        { k: "upsert", actor: 0, ref: "R1" },
        { k: "read", actor: 1, target: 0 },
        { k: "update", actor: 1, target: 0 },
        { k: "rename", actor: 1, target: 0, ref: "R2" },
        { k: "delete", actor: 1, target: 0 },
        { k: "deleteRef", actor: 1, ref: "R1" },
        { k: "deleteRef", actor: 1, ref: "R1" },
        { k: "list", actor: 0, ref: "R1" },
      ],
      [a, b],
    );
  });
});
