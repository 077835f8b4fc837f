import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/lib/free-port.mjs";
import { migrateState, seedEmployers, sleep, startApi } from "../../scripts/lib/local-load.mjs";

// Issue 46.1: two processes write the same local SQLite files, the dev server and a command.
// Neither may fail because the other wrote at the same moment: a busy database is waited out, in
// the Worker and in the command. The command here is every command's runner of SQL
// (scripts/lib/wrangler.mjs `execute`: `wrangler d1 execute` behind SQLite's write lock, retried),
// writing one call after another for as long as the employers write. (`npm run shards -- move`
// no longer writes the databases itself: the Worker moves employers, DESIGN 22b.)

const WRANGLER_LIB = new URL("../../scripts/lib/wrangler.mjs", import.meta.url).href;
const MINUTES = 60_000;
/** `wrangler d1 execute` calls the command makes, each a few seconds locally. */
const COMMAND_WRITES = 15;

let dir;
let api;
let mover;
let bystander;

const job = (referenceId, title) => ({
  referenceId,
  title,
  status: "active",
  closeDate: "2031-06-30",
  locations: [{ description: "Toronto, ON" }],
  categories: [{ id: 1 }],
  description: "<p>Busy databases are waited out.</p>",
});

async function call(employer, method, path, body) {
  const res = await fetch(`${api.base}${path}`, {
    method,
    headers: { "API-Key": employer.apiKey, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.text() };
}

/** A command's writes of `employerId`'s row, one `wrangler d1 execute` after another, on the dev server's own state: its exit code and output. */
function runCommand(employerId) {
  const script = `import { query } from ${JSON.stringify(WRANGLER_LIB)};
    for (let i = 0; i < ${COMMAND_WRITES}; i++) query("UPDATE employers SET name = 'Busy Writer ' || " + i + " WHERE id = ${employerId}", false, "DB", ["--persist-to", ${JSON.stringify(dir)}]);
    console.log("written");`;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let error = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    child.stderr.on("data", (chunk) => (error += chunk));
    child.on("close", (code) => resolve({ code, out, error }));
  });
}

/** PUTs of `employer`'s own jobs (each its own referenceId, renamed in turn) until `until` resolves. */
async function writeUntil(employer, prefix, until) {
  const answers = [];
  let done = false;
  until.then(() => (done = true));
  for (let n = 0; !done; n++) {
    const started = Date.now();
    const referenceId = `${prefix}-${n % 20}`;
    const answer = await call(employer, "PUT", "/jobs", job(referenceId, `${prefix} write ${n}`));
    answers.push({ ...answer, employer: employer.employerId, referenceId, title: `${prefix} write ${n}` });
    await sleep(Math.max(0, 50 - (Date.now() - started))); // about 20 writes a second
  }
  return answers;
}

describe("a busy local database is waited out (issue 46.1)", () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "jpa-busy-"));
    migrateState(dir);
    // Employers 1 and 3 of seedEmployers live in shard 0 (it spreads them over the shards in turn).
    const employers = await seedEmployers(dir, 3, { name: "Busy Employer", keyPrefix: "busy_" });
    [mover, , bystander] = employers;
    api = await startApi(dir, await freePort());
  }, 8 * MINUTES);

  afterAll(async () => {
    await api?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("while a command writes the dev server's shard, two employers' writes get no 500 and no busy 503, and the command finishes", async () => {
    const command = runCommand(mover.employerId);
    const [written, moverAnswers, bystanderAnswers] = await Promise.all([command, writeUntil(mover, "mover", command), writeUntil(bystander, "bystander", command)]);
    expect(written.code, `${written.error}\n${readFileSync(api.log, "utf8").slice(-3000)}`).toBe(0);
    expect(written.out.trim()).toBe("written");
    expect([...moverAnswers, ...bystanderAnswers].filter((answer) => answer.status >= 500)).toEqual([]);
    expect(bystanderAnswers.length).toBeGreaterThan(20);
    expect(bystanderAnswers.every((answer) => answer.status === 200 || answer.status === 201)).toBe(true);
    // Every acknowledged write stands: each of the other employer's jobs holds its last answered title.
    const last = new Map(bystanderAnswers.map((answer) => [answer.referenceId, answer.title]));
    const { body } = await call(bystander, "GET", "/jobs?pageSize=100");
    expect(new Map(JSON.parse(body).data.map((found) => [found.referenceId, found.title]))).toEqual(last);
    // The command's writes stand too: the employer's row holds its last.
    expect(moverAnswers.every((answer) => answer.status === 200 || answer.status === 201)).toBe(true);
    expect(JSON.parse((await call(mover, "GET", "/employer")).body).name).toBe(`Busy Writer ${COMMAND_WRITES - 1}`);
  }, 10 * MINUTES);
});
