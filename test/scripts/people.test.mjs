import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { target, wrangler } from "../../scripts/lib/wrangler.mjs";

// DESIGN 25a: `npm run people` as an operator runs it, on local state of its own (a temporary
// --persist-to directory, removed after), never the state `npm run dev` serves — a fresh state,
// as on a fresh clone before `npm run dev` ever ran.

const SCRIPT = fileURLToPath(new URL("../../scripts/people.mjs", import.meta.url));
const MINUTES = 60_000;
let state;

function people(...args) {
  const run = spawnSync(process.execPath, [SCRIPT, ...args, "--persist-to", state], { encoding: "utf8", maxBuffer: 16 * 1024 * 1024, env: { ...process.env, PUBLIC_ORIGIN: "" } });
  return { code: run.status, lines: run.stdout.trim().split("\n"), error: run.stderr };
}
const sql = (command, binding = "DB") => JSON.parse(wrangler(["d1", "execute", binding, ...target(false), "--persist-to", state, "--json", "--command", command])).at(-1).results;

describe("npm run people (DESIGN 25a)", () => {
  beforeAll(() => {
    state = mkdtempSync(join(tmpdir(), "jpa-people-"));
  });
  afterAll(() => rmSync(state, { recursive: true, force: true }));

  it("on a fresh state: refuses an unknown employer clearly (exit 1), after applying the migrations itself", () => {
    const refused = people("invite", "--employer", "4242", "--email", "boss@example.com");
    expect(refused.code).toBe(1);
    expect(refused.error).toMatch(/No employer 4242/);
    expect(sql("SELECT count(*) AS n FROM invitations", "ACCOUNTS_DB")).toEqual([{ n: 0 }]);
  }, 5 * MINUTES);

  it("invite prints {invitationUrl, expiresAt} last (the local origin, 7 days), stores only the token's hash; list prints one JSON line per person and invitation", () => {
    const [{ id }] = sql("INSERT INTO employers (name, plan, created_at) VALUES ('People Script Ltd.', 'standard', unixepoch()) RETURNING id");
    const invited = people("invite", "--employer", String(id), "--email", "Boss@Example.com", "--role", "recruiter");
    expect(invited.code, invited.error).toBe(0);
    const { invitationUrl, expiresAt } = JSON.parse(invited.lines.at(-1));
    expect(invitationUrl).toMatch(/^http:\/\/localhost:8787\/employer\/invitations\/[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(7 * 24 * 60 * MINUTES - 5 * MINUTES);
    const token = invitationUrl.split("/").at(-1);
    const [row] = sql("SELECT token_hash AS hash, email, role FROM invitations", "ACCOUNTS_DB");
    expect(row).toEqual({ hash: expect.stringMatching(/^[0-9a-f]{64}$/), email: "boss@example.com", role: "recruiter" });
    expect(row.hash).not.toContain(token);

    sql(`INSERT INTO people (employer_id, email, role, language, created_at) VALUES (${id}, 'admin@example.com', 'admin', 'fr', 0)`, "ACCOUNTS_DB");
    const listed = people("list", "--employer", String(id));
    expect(listed.code, listed.error).toBe(0);
    expect(listed.lines.map((line) => JSON.parse(line))).toEqual([
      { type: "person", id: expect.any(Number), email: "admin@example.com", role: "admin", language: "fr", createdAt: "1970-01-01T00:00:00Z" },
      { type: "invitation", email: "boss@example.com", role: "recruiter", invitedBy: "operator", status: "open", createdAt: expect.any(String), expiresAt, usedAt: null },
    ]);

    const withOrigin = people("invite", "--employer", String(id), "--email", "two@example.com", "--origin", "https://jobs.example.com");
    expect(JSON.parse(withOrigin.lines.at(-1)).invitationUrl).toMatch(/^https:\/\/jobs\.example\.com\/employer\/invitations\//);
    expect(people("invite", "--employer", String(id), "--email", "x@example.com", "--role", "owner").code).toBe(1);
  }, 5 * MINUTES);
});
