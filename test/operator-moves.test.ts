import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../src/index";
import type { MoveStatus } from "../src/shards/move-status";
import { BASE, createEmployer, createTestKey } from "./support/api";
import { signedIn } from "./support/console";
import { postJob } from "./support/jobs";
import { countIn, rowsIn } from "./support/moves";
import { accessToken, expectValidHtml, newTeam, operatorCall, settingsOf, signedInOperator, type Team } from "./support/operator";

// DESIGN 22b, 26: the operator's move routes — POST /operator/shards/moves starts a move (audited
// as shards.move), GET /operator/shards/moves/{employerId} follows it — behind Access, JSON for a
// command (a service token, or Accept: application/json), pages for the console; the move itself
// runs in its Durable Object's alarms, followed here to its end.

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const unique = () => crypto.randomUUID().slice(0, 8);

/** A command of `team`: an Access service token (no email, its common_name), JSON in and out. */
async function command(team: Team, commonName = `${unique()}.access`) {
  const token = await accessToken(team, { email: null, claims: { common_name: commonName } });
  const send = async (path: string, init: { method?: string; body?: string; headers?: Record<string, string> } = {}) => {
    const headers = new Headers({ "Cf-Access-Jwt-Assertion": token, ...init.headers });
    if (init.body !== undefined) headers.set("Content-Type", "application/json");
    const ctx = createExecutionContext();
    const res = await worker.fetch!(new Request(`${BASE}${path}`, { method: init.method ?? (init.body === undefined ? "GET" : "POST"), headers, body: init.body, redirect: "manual" }) as never, { ...env, ...settingsOf(team), ACCESS_DEV_PRIVATE_JWK: undefined } as never, ctx);
    await waitOnExecutionContext(ctx);
    return res;
  };
  return {
    operator: `service-token:${commonName}`,
    send,
    start: (body: unknown) => send("/operator/shards/moves", { body: typeof body === "string" ? body : JSON.stringify(body) }),
    progress: (employerId: number) => send(`/operator/shards/moves/${employerId}`),
  };
}

/** GET the move until it is done or failed: its last status. */
async function followed(progress: () => Promise<Response>, timeoutMs = 60_000): Promise<MoveStatus> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await progress();
    expect(res.status).toBe(200);
    const status = await res.json<MoveStatus>();
    if (status.stage === "done" || status.stage === "failed") return status;
    if (Date.now() > deadline) throw new Error(`the move is still ${status.stage}`);
    await sleep(50);
  }
}

const auditOf = (operator: string) =>
  env.ACCOUNTS_DB.prepare("SELECT operator, action, target, reason, note, outcome FROM audit WHERE operator = ? ORDER BY id").bind(operator).all().then((result) => result.results);

/** An employer of shard 0 with a job and a test space: something in every kind of row a small move takes. */
async function movable() {
  const employer = await createEmployer({ name: `Moves ${unique()}`, shard: 0 });
  const job = await postJob(employer, { title: "Moving Desk" });
  await createTestKey(employer);
  return { employer, job };
}

describe("the move routes are behind Access (DESIGN 26, 22b)", () => {
  it("no token, an employer console's session (a recruiter's), a token of another team: 403 Forbidden with nothing of the console, and no move started", async () => {
    const { employer } = await movable();
    const team = await newTeam();
    const stranger = await accessToken(await newTeam());
    const recruiter = await signedIn(employer.employerId, `recruiter.${unique()}@example.com`, { role: "recruiter" });
    const attempts: { headers?: Record<string, string>; token?: string }[] = [{}, { headers: { Cookie: `__Host-jpa_session=${recruiter}` } }, { token: stranger }];
    for (const attempt of attempts) {
      const asks: [string, Record<string, string> | undefined][] = [["/operator/shards/moves", { employerId: String(employer.employerId), to: "1" }], [`/operator/shards/moves/${employer.employerId}`, undefined]];
      for (const [path, form] of asks) {
        const res = await operatorCall(path, { ...attempt, form, env: settingsOf(team) });
        expect(res.status, `${path} ${JSON.stringify(attempt)}`).toBe(403);
        expect(await res.text()).toBe("Forbidden");
      }
    }
    expect(await countIn(0, "move_capture WHERE move_of = ?", employer.employerId)).toBe(0);
    expect(await rowsIn(0, "SELECT moved_to AS movedTo FROM employers WHERE id = ?", employer.employerId)).toEqual([{ movedTo: null }]);
  });
});

describe("a command starts a move and follows it to its end (DESIGN 22b)", () => {
  it("POST {employerId, to}: 202, Location, the MoveStatus, audited shards.move pending → done; asked again: the same move; GET follows it through the Durable Object's alarms to done (200, DESIGN 22a's outcome); asked once done: 200, the same move", async () => {
    const { employer, job } = await movable();
    const cli = await command(await newTeam());
    const res = await cli.start({ employerId: employer.employerId, to: 1 });
    expect(res.status).toBe(202);
    expect(res.headers.get("Location")).toBe(`/operator/shards/moves/${employer.employerId}`);
    expect(res.headers.get("Content-Type")).toMatch(/^application\/json/);
    const started = await res.json<MoveStatus>();
    expect(started).toMatchObject({ employerId: employer.employerId, from: 0, to: 1, stage: "copying", finishedAt: null, outcome: null });

    const again = await cli.start({ employerId: employer.employerId, to: 1 });
    expect([200, 202]).toContain(again.status);
    const same = await again.json<MoveStatus>();
    expect(same.startedAt).toBe(started.startedAt);
    if (same.stage !== "done") expect(again.status).toBe(202);

    const status = await followed(() => cli.progress(employer.employerId));
    expect(status.stage, JSON.stringify(status.error)).toBe("done");
    expect(status.outcome).toEqual({ employerId: employer.employerId, from: 0, to: 1, rows: expect.any(Number), ms: expect.any(Number) });
    expect(status.freezes.filter((freeze) => freeze.outcome === "flipped")).toHaveLength(1);
    expect(await rowsIn(1, "SELECT id FROM jobs WHERE employer_id = ?", employer.employerId)).toEqual([{ id: job.id }]);
    expect(await rowsIn(0, "SELECT moved_to AS movedTo FROM employers WHERE id = ?", employer.employerId)).toEqual([{ movedTo: 1 }]);

    const done = await cli.start({ employerId: employer.employerId, to: 1 });
    expect(done.status).toBe(200);
    expect(await done.json<MoveStatus>()).toMatchObject({ stage: "done", startedAt: started.startedAt, outcome: status.outcome });
    const acts = await auditOf(cli.operator);
    expect(acts).toEqual(acts.map(() => ({ operator: cli.operator, action: "shards.move", target: `employer:${employer.employerId}`, reason: null, note: "to shard 1", outcome: "done" })));
    expect(acts).toHaveLength(3);
  });

  it("GET for an employer never moved: 404 problem+json; an id that cannot be one: 404", async () => {
    const { employer } = await movable();
    const cli = await command(await newTeam());
    for (const path of [`/operator/shards/moves/${employer.employerId}`, "/operator/shards/moves/abc"]) {
      const res = await cli.send(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get("Content-Type")).toBe("application/problem+json");
      expect((await res.json<any>()).type).toBe("/problems/not-found");
    }
  });

  it("422 naming every broken field (employerId, to), as problem+json: members missing, of the wrong type, out of range, a body that is not JSON; nothing started, nothing recorded", async () => {
    const { employer } = await movable();
    const cli = await command(await newTeam());
    const cases: [unknown, string[]][] = [
      [{}, ["employerId", "to"]],
      [{ employerId: String(employer.employerId), to: "1" }, ["employerId", "to"]],
      [{ employerId: 0, to: -1 }, ["employerId", "to"]],
      [{ employerId: employer.employerId, to: 1.5 }, ["to"]],
      [{ employerId: 2 ** 60, to: 1 }, ["employerId"]],
      ["{not json", ["employerId", "to"]],
      [[employer.employerId, 1], ["employerId", "to"]],
    ];
    for (const [body, fields] of cases) {
      const res = await cli.start(body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.headers.get("Content-Type")).toBe("application/problem+json");
      const problem = await res.json<any>();
      expect(problem.type).toBe("/problems/validation-error");
      expect(problem.errors.map((error: { field: string }) => error.field), JSON.stringify(body)).toEqual(fields);
    }
    expect(await auditOf(cli.operator)).toEqual([]);
    expect(await countIn(0, "move_capture WHERE move_of = ?", employer.employerId)).toBe(0);
  });

  it("409 /problems/move-refused naming why — an unknown employer, the shard it lives in, no such shard, a test space's id — audited as failed; nothing changed", async () => {
    const { employer } = await movable();
    const space = await createTestKey(employer);
    const cli = await command(await newTeam());
    const cases: [{ employerId: number; to: number }, RegExp][] = [
      [{ employerId: 987_654_321, to: 1 }, /No employer 987654321/],
      [{ employerId: employer.employerId, to: 0 }, /already lives in shard 0/],
      [{ employerId: employer.employerId, to: 7 }, /No shard 7/],
      [{ employerId: space.employerId, to: 1 }, new RegExp(`test space of employer ${employer.employerId}`)],
    ];
    for (const [body, why] of cases) {
      const res = await cli.start(body);
      expect(res.status, JSON.stringify(body)).toBe(409);
      expect(res.headers.get("Content-Type")).toBe("application/problem+json");
      const problem = await res.json<any>();
      expect(problem.type).toBe("/problems/move-refused");
      expect(problem.detail).toMatch(why);
    }
    expect((await auditOf(cli.operator)).map((act: any) => act.outcome)).toEqual(["failed", "failed", "failed", "failed"]);
    expect(await countIn(0, "move_capture WHERE move_of = ?", employer.employerId)).toBe(0);
  });

  it("a person's token asking Accept: application/json gets JSON too; without it, pages", async () => {
    const { employer } = await movable();
    const operator = await signedInOperator();
    const json = await operator.call(`/operator/shards/moves/${employer.employerId}`, { headers: { Accept: "application/json" } });
    expect(json.status).toBe(404);
    expect(json.headers.get("Content-Type")).toBe("application/problem+json");
    const page = await operator.call(`/operator/shards/moves/${employer.employerId}`);
    expect(page.status).toBe(404);
    expect(page.headers.get("Content-Type")).toMatch(/^text\/html/);
    expect(await expectValidHtml(page)).toContain("never moved by the Worker");
  });
});

describe("the console shows moves and starts them (DESIGN 22b, 26)", () => {
  it("the employer's page offers the other shards; its form starts the move (303 to the move's page, audited as the person); the move's page shows stage, shards, rounds, freezes and the outcome, with a refresh link, in English and French; the employer's page then shows its latest move", async () => {
    const { employer } = await movable();
    const operator = await signedInOperator();
    const before = await operator.call(`/operator/employers/${employer.employerId}`);
    expect(before.status).toBe(200);
    const html = await expectValidHtml(before);
    expect(html).toContain("Move to another shard");
    expect(html).toMatch(/<select id="move-to" name="to" required[^>]*><option value="">Choose a shard<\/option><option value="1">1<\/option><\/select>/);
    expect(html).toContain(`<input type="hidden" name="employerId" value="${employer.employerId}"`);

    const started = await operator.call("/operator/shards/moves", { form: { employerId: String(employer.employerId), to: "1" } });
    expect(started.status).toBe(303);
    expect(started.headers.get("Location")).toBe(`/operator/shards/moves/${employer.employerId}`);
    const status = await followed(() => operator.call(`/operator/shards/moves/${employer.employerId}`, { headers: { Accept: "application/json" } }));
    expect(status.stage).toBe("done");
    expect(await auditOf(operator.email)).toEqual([{ operator: operator.email, action: "shards.move", target: `employer:${employer.employerId}`, reason: null, note: "to shard 1", outcome: "done" }]);

    const progress = await operator.call(`/operator/shards/moves/${employer.employerId}`);
    expect(progress.status).toBe(200);
    const shown = await expectValidHtml(progress);
    expect(shown).toContain(`<h1>Move of employer ${employer.employerId}</h1>`);
    expect(shown).toContain("<dd>done</dd>");
    expect(shown).toContain("<caption>Freezes</caption>");
    expect(shown).toContain(JSON.stringify(status.outcome).replaceAll('"', "&quot;"));
    expect(shown).toContain(`<a href="/operator/shards/moves/${employer.employerId}">Refresh</a>`);
    const french = await operator.call(`/operator/shards/moves/${employer.employerId}?lang=fr`);
    const fr = await expectValidHtml(french, "fr");
    expect(fr).toContain(`<h1>Déplacement de l&#39;employeur ${employer.employerId}</h1>`);
    expect(fr).toContain("<dd>terminé</dd>");
    expect(fr).toContain("Actualiser");

    const after = await expectValidHtml(await operator.call(`/operator/employers/${employer.employerId}`));
    expect(after).toContain("Its latest move");
    expect(after).toMatch(/<select id="move-to" name="to" required[^>]*><option value="">Choose a shard<\/option><option value="0">0<\/option><\/select>/);
  });

  it("the form refused: 422 with each message beside its field (aria-invalid) and what was typed; 409 saying why the move was refused; nothing started", async () => {
    const { employer } = await movable();
    const operator = await signedInOperator();
    const invalid = await operator.call("/operator/shards/moves", { form: { employerId: "twelve", to: "" } });
    expect(invalid.status).toBe(422);
    const html = await expectValidHtml(invalid);
    expect(html).toMatch(/<input id="move-employer" name="employerId" inputmode="numeric" value="twelve" required="" aria-invalid="true" aria-describedby="move-employer-error"/);
    expect(html).toContain('<strong id="move-employer-error" class="error">employerId must be an employer id: a whole number from 1.</strong>');
    expect(html).toContain('<strong id="move-to-error" class="error">to must be a shard number: a whole number from 0.</strong>');

    const refused = await operator.call("/operator/shards/moves", { form: { employerId: String(employer.employerId), to: "0" } });
    expect(refused.status).toBe(409);
    expect(await expectValidHtml(refused)).toContain(`The move was refused; nothing changed: Employer ${employer.employerId} already lives in shard 0.`);
    expect((await auditOf(operator.email)).map((act: any) => act.outcome)).toEqual(["failed"]);
    expect(await countIn(0, "move_capture WHERE move_of = ?", employer.employerId)).toBe(0);
  });
});
