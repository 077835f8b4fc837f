import { spawnSync } from "node:child_process";
import { createPublicKey } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unstable_readConfig } from "wrangler";
import { DEV_ACCESS_AUD, ensureStandInKey, readDevVars, standInSettings } from "../../scripts/lib/dev-access.mjs";
import { target, wrangler } from "../../scripts/lib/wrangler.mjs";

// DESIGN 26a: `npm run operator` as an operator runs it — the audit on local state of its own (a
// temporary --persist-to directory, removed after), the dev stand-in's sign-in link from a
// .dev.vars of its own — and the proof that no deployed configuration has the stand-in.

const SCRIPT = fileURLToPath(new URL("../../scripts/operator.mjs", import.meta.url));
const CONFIG = fileURLToPath(new URL("../../wrangler.toml", import.meta.url));
const MINUTES = 60_000;
let state;
let devDir;

function operator(args, { cwd, port } = {}) {
  const run = spawnSync(process.execPath, [SCRIPT, ...args], { cwd, encoding: "utf8", maxBuffer: 16 * 1024 * 1024, env: { ...process.env, PORT: port ?? "8787" } });
  return { code: run.status, lines: run.stdout.trim().split("\n"), error: run.stderr };
}
const sql = (command) => JSON.parse(wrangler(["d1", "execute", "ACCOUNTS_DB", ...target(false), "--persist-to", state, "--json", "--command", command])).at(-1).results;

describe("npm run operator (DESIGN 26a)", () => {
  beforeAll(() => {
    state = mkdtempSync(join(tmpdir(), "jpa-operator-"));
    devDir = mkdtempSync(join(tmpdir(), "jpa-operator-dev-"));
  });
  afterAll(() => {
    rmSync(state, { recursive: true, force: true });
    rmSync(devDir, { recursive: true, force: true });
  });

  it("audit prints one JSON line per act, oldest first: { at, operator, action, target, reason, note, outcome }; --since YYYY-MM-DD keeps the acts from that day on", () => {
    const empty = operator(["audit", "--persist-to", state]);
    expect(empty.code, empty.error).toBe(0);
    expect(empty.lines).toEqual([""]);
    sql(`INSERT INTO audit (at, operator, action, target, reason, note, outcome) VALUES
      (${Date.UTC(2026, 10, 1, 9)}, 'ana@board.example', 'employer.create', 'employer:7', NULL, 'Acme (standard)', 'done'),
      (${Date.UTC(2026, 10, 20, 10, 30)}, 'ana@board.example', 'employer.plan', 'employer:7', NULL, 'standard → unlimited', 'failed'),
      (${Date.UTC(2026, 10, 21)}, 'service-token:abc.access', 'job.remove', 'job:9', 'fraud', 'Asks for a fee "up front".', 'done')`);
    const all = operator(["audit", "--persist-to", state]);
    expect(all.code, all.error).toBe(0);
    expect(all.lines.map((line) => JSON.parse(line))).toEqual([
      { at: "2026-11-01T09:00:00Z", operator: "ana@board.example", action: "employer.create", target: "employer:7", reason: null, note: "Acme (standard)", outcome: "done" },
      { at: "2026-11-20T10:30:00Z", operator: "ana@board.example", action: "employer.plan", target: "employer:7", reason: null, note: "standard → unlimited", outcome: "failed" },
      { at: "2026-11-21T00:00:00Z", operator: "service-token:abc.access", action: "job.remove", target: "job:9", reason: "fraud", note: 'Asks for a fee "up front".', outcome: "done" },
    ]);
    const since = operator(["audit", "--since", "2026-11-20", "--persist-to", state]);
    expect(since.lines.map((line) => JSON.parse(line).at)).toEqual(["2026-11-20T10:30:00Z", "2026-11-21T00:00:00Z"]);
    const bad = operator(["audit", "--since", "20 November", "--persist-to", state]);
    expect(bad.code).toBe(1);
    expect(bad.error).toMatch(/--since must be a date, YYYY-MM-DD/);
  }, 5 * MINUTES);

  it("sign-in --email X prints a link to the local origin's dev sign-in whose token the stand-in's public key verifies (RS256, iss the local origin, aud the dev tag, the email, an hour); without the key in .dev.vars it says to run npm run dev", async () => {
    const refused = operator(["sign-in", "--email", "dev@example.com"], { cwd: devDir });
    expect(refused.code).toBe(1);
    expect(refused.error).toMatch(/run npm run dev once/);

    expect(ensureStandInKey(join(devDir, ".dev.vars"))).toBe(true);
    expect(ensureStandInKey(join(devDir, ".dev.vars"))).toBe(false);
    const signed = operator(["sign-in", "--email", "Dev@Example.com"], { cwd: devDir, port: "9123" });
    expect(signed.code, signed.error).toBe(0);
    const link = new URL(signed.lines.at(-1));
    expect(`${link.origin}${link.pathname}`).toBe("http://localhost:9123/cdn-cgi/access/dev-sign-in");
    const jwk = JSON.parse(readDevVars(join(devDir, ".dev.vars")).ACCESS_DEV_PRIVATE_JWK);
    const { payload, protectedHeader } = await jwtVerify(link.searchParams.get("token"), createPublicKey({ key: jwk, format: "jwk" }), {
      algorithms: ["RS256"],
      issuer: "http://localhost:9123",
      audience: DEV_ACCESS_AUD,
    });
    expect(protectedHeader.kid).toBe(jwk.kid);
    expect(payload.email).toBe("dev@example.com");
    expect(payload.exp - payload.iat).toBe(3600);
    expect(readFileSync(join(devDir, ".dev.vars"), "utf8")).toMatch(/^ACCESS_DEV_PRIVATE_JWK='\{"kty":"RSA",.*"d":/m);
  });

  it("npm run dev points the console at the stand-in (ACCESS_TEAM_DOMAIN the local origin, ACCESS_AUD the dev tag) unless .dev.vars sets either", () => {
    expect(standInSettings("8787", {})).toEqual(["--var", "ACCESS_TEAM_DOMAIN:http://localhost:8787", "--var", `ACCESS_AUD:${DEV_ACCESS_AUD}`]);
    expect(standInSettings("8787", { ACCESS_TEAM_DOMAIN: "", ACCESS_AUD: "x" })).toEqual([]);
    expect(standInSettings("9000", { ACCESS_AUD: "real-tag" })).toEqual(["--var", "ACCESS_TEAM_DOMAIN:http://localhost:9000"]);
  });

  it("the deployed configuration has no stand-in: no environment of wrangler.toml carries ACCESS_DEV_* (its key lives only in .dev.vars, which a deploy never reads), and none points Access at a local origin", () => {
    for (const env of [undefined, "dev", "load"]) {
      const vars = unstable_readConfig({ config: CONFIG, env }, { hideWarnings: true }).vars ?? {};
      expect(Object.keys(vars).filter((name) => name.startsWith("ACCESS_DEV_")), env ?? "top level").toEqual([]);
      expect(String(vars.ACCESS_TEAM_DOMAIN ?? ""), env ?? "top level").not.toMatch(/localhost|127\.0\.0\.1/);
    }
  });
});
