import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { afterEach, describe, expect, it, vi } from "vitest";
import { accessToken, fetchesOf, newKey, newTeam, operatorCall, publish, settingsOf, signedInOperator, type Team } from "./support/operator";

// DESIGN 26, 26a: the operator's console behind Cloudflare Access — tokens signed here with RSA
// keys generated here, the team's key set served to the Worker by test/support/access-stub.ts —
// and npm run dev's stand-in of Access, which no other environment has.

const CONSOLE_PATHS = ["/operator", "/operator/employers", "/operator/employers?q=a", "/operator/employers/1", "/operator/audit", "/operator/no-such-page"];

/** An answer as the app's 404 is compared: its status, type and problem (its request id and address aside). */
async function shapeOf(res: Response) {
  const { requestId: _requestId, instance: _instance, ...problem } = (await res.json()) as Record<string, unknown>;
  return { status: res.status, type: res.headers.get("Content-Type"), problem };
}

/** The app's own 404 for an address that is nothing. */
const appNotFound = async () => shapeOf(await operatorCall("/no-such-page-at-all"));

async function expectBare403(res: Response) {
  expect(res.status).toBe(403);
  const body = await res.text();
  expect(body).toBe("Forbidden");
  expect(res.headers.get("Cache-Control")).toBe("no-store");
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("Access settings (DESIGN 26a)", () => {
  it("without ACCESS_TEAM_DOMAIN and ACCESS_AUD (unset or empty) every /operator address answers 404, the app's normal 404, even with a valid token", async () => {
    const expected = await appNotFound();
    expect(expected.status).toBe(404);
    const team = await newTeam();
    const token = await accessToken(team);
    const settings = [{}, { ACCESS_TEAM_DOMAIN: "", ACCESS_AUD: "" }, { ACCESS_TEAM_DOMAIN: team.teamDomain }, { ACCESS_AUD: team.audience }, { ACCESS_TEAM_DOMAIN: team.teamDomain, ACCESS_AUD: " " }];
    for (const env of settings) {
      for (const path of CONSOLE_PATHS) {
        const res = await operatorCall(path, { token, env });
        expect(await shapeOf(res), `${JSON.stringify(env)} ${path}`).toEqual(expected);
      }
      const post = await operatorCall("/operator/employers", { token, env, form: { name: "X", plan: "standard", adminEmail: "a@b.example" } });
      expect(post.status).toBe(404);
    }
    expect(await fetchesOf(team.name)).toBe(0);
  });
});

describe("Access tokens (DESIGN 26)", () => {
  it("a valid token in the Cf-Access-Jwt-Assertion header, or in the CF_Authorization cookie, opens the console; the operator is the token's email", async () => {
    const team = await newTeam();
    const token = await accessToken(team, { email: "Ana@Board.example" });
    for (const cookie of [false, true]) {
      const res = await operatorCall("/operator", { token, cookie, env: settingsOf(team) });
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).toContain("Signed in as ana@board.example");
      expect(html).toContain("<h1>Reported jobs</h1>");
    }
    // A team domain written with a trailing slash is the same team.
    const slashed = await operatorCall("/operator", { token, env: { ...settingsOf(team), ACCESS_TEAM_DOMAIN: `${team.teamDomain}/` } });
    expect(slashed.status).toBe(200);
  });

  it("a service token (no email, a common_name) opens it too, as service-token:<common_name>", async () => {
    const team = await newTeam();
    const token = await accessToken(team, { email: null, claims: { common_name: "0123abcd.access" } });
    const res = await operatorCall("/operator", { token, env: settingsOf(team) });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Signed in as service-token:0123abcd.access");
  });

  it("anything else answers 403 with nothing of the console in it: no token, not a token, expired, another issuer, another audience, an unknown key, another algorithm, no exp, no one named", async () => {
    const team = await newTeam();
    const other = await newTeam();
    const stranger = await newKey();
    const now = Math.floor(Date.now() / 1000);
    const hmac = await new SignJWT({ email: "x@board.example" }).setProtectedHeader({ alg: "HS256", kid: team.key.kid }).setIssuer(team.teamDomain).setAudience(team.audience).setExpirationTime(now + 60).sign(new TextEncoder().encode("a shared secret of thirty-two bytes!"));
    const rs384 = await generateKeyPair("RS384", { extractable: true });
    const rs384Kid = crypto.randomUUID();
    await publish(team.name, [team.key, { kid: rs384Kid, privateKey: rs384.privateKey, publicJwk: { ...(await exportJWK(rs384.publicKey)), kid: rs384Kid, alg: "RS384" } }]);
    const noExp = await new SignJWT({ email: "x@board.example" }).setProtectedHeader({ alg: "RS256", kid: team.key.kid }).setIssuer(team.teamDomain).setAudience(team.audience).sign(team.key.privateKey);
    const refused: Record<string, string | undefined> = {
      "no token": undefined,
      "not a token": "not-a-token",
      expired: await accessToken(team, { expiresIn: -10 }),
      "another issuer": await accessToken({ ...team, teamDomain: other.teamDomain }),
      "another team's token": await accessToken(other),
      "another audience": await accessToken({ ...team, audience: "someone-else" }),
      "a key not in the team's set": await accessToken(team, { key: stranger }),
      "HS256 (its kid a team key's)": hmac,
      RS384: await accessToken(team, { key: { kid: rs384Kid, privateKey: rs384.privateKey, publicJwk: {} }, alg: "RS384" }),
      "no exp": noExp,
      "no email nor common_name": await accessToken(team, { email: null }),
      "an empty email": await accessToken(team, { email: "" }),
    };
    for (const [what, token] of Object.entries(refused)) {
      for (const path of ["/operator", "/operator/audit"]) {
        const res = await operatorCall(path, { token, env: settingsOf(team) });
        await expectBare403(res).catch((error) => {
          throw new Error(`${what} ${path}: ${error.message}`);
        });
      }
    }
    // A POST is refused before anything of it is read.
    await expectBare403(await operatorCall("/operator/employers", { token: refused.expired, env: settingsOf(team), form: { name: "Never", plan: "standard", adminEmail: "a@b.example" } }));
  });

  it("the team's keys out of reach (its certs address answers 404): 403", async () => {
    const team = await newTeam();
    await publish(team.name, []);
    const unreachable = { ...team, name: `${team.name}-gone`, teamDomain: `https://${team.name}-gone.access.test` };
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    await expectBare403(await operatorCall("/operator", { token: await accessToken(unreachable), env: settingsOf(unreachable) }));
  });

  it("the team's keys are fetched from {ACCESS_TEAM_DOMAIN}/cdn-cgi/access/certs once and cached per team; an unknown key id fetches them again, at most once a minute (rotation)", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-12-01T12:00:00Z"));
    const team = await newTeam();
    const other = await newTeam();
    const at = (path: string, token: string, t: Team = team) => operatorCall(path, { token, env: settingsOf(t) });
    const first = await accessToken(team);
    expect((await at("/operator", first)).status).toBe(200);
    expect((await at("/operator/audit", first)).status).toBe(200);
    expect(await fetchesOf(team.name)).toBe(1);
    // Another team: its own keys, fetched once too.
    expect((await at("/operator", await accessToken(other), other)).status).toBe(200);
    expect(await fetchesOf(other.name)).toBe(1);

    // The team rolls its key: the new key id is unknown here until the keys are fetched again.
    const rolled = await newKey();
    await publish(team.name, [team.key, rolled]);
    vi.setSystemTime(new Date("2026-12-01T12:00:30Z"));
    const signedWithRolled = await accessToken(team, { key: rolled });
    expect((await at("/operator", signedWithRolled)).status).toBe(403);
    expect(await fetchesOf(team.name)).toBe(1);
    vi.setSystemTime(new Date("2026-12-01T12:01:01Z"));
    expect((await at("/operator", await accessToken(team, { key: rolled }))).status).toBe(200);
    expect(await fetchesOf(team.name)).toBe(2);
    // A forged key id right after: no fetch for it within the minute.
    expect((await at("/operator", await accessToken(team, { key: await newKey() }))).status).toBe(403);
    expect((await at("/operator", await accessToken(team))).status).toBe(200);
    expect(await fetchesOf(team.name)).toBe(2);
  });
});

describe("the console's requests (DESIGN 26, 26a)", () => {
  it("every answer is private: no-store, noindex, no Referer to another site, a CSP without inline script, never framed — the 403 included; no page has a script", async () => {
    const operator = await signedInOperator();
    for (const res of [await operator.call("/operator"), await operator.call("/operator/audit"), await operator.call("/operator", { token: "forged" })]) {
      expect(res.headers.get("Cache-Control")).toBe("no-store");
      expect(res.headers.get("X-Robots-Tag")).toBe("noindex");
      // Same origin only: under no-referrer a browser's form POST carries `Origin: null`, which the Origin check refuses.
      expect(res.headers.get("Referrer-Policy")).toBe("same-origin");
      expect(res.headers.get("X-Frame-Options")).toBe("DENY");
      const csp = res.headers.get("Content-Security-Policy")!;
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain("unsafe-inline");
      expect(csp).not.toMatch(/script-src/);
      expect(await res.text()).not.toContain("<script");
    }
  });

  it("every POST needs its Origin to be the console's own (hono/csrf): another Origin, or none, is refused and changes nothing", async () => {
    const operator = await signedInOperator();
    for (const origin of ["https://evil.example", null]) {
      const res = await operator.call("/operator/language", { form: { language: "fr", back: "/operator" }, origin });
      expect(res.status).toBe(403);
      expect(res.headers.getSetCookie()).toEqual([]);
    }
    const own = await operator.call("/operator/language", { form: { language: "fr", back: "/operator/audit" } });
    expect(own.status).toBe(303);
  });

  it("English and French: POST /operator/language remembers the choice and answers 303 back to the page it came from (only a console page)", async () => {
    const operator = await signedInOperator();
    const english = await (await operator.call("/operator")).text();
    expect(english).toContain('<html lang="en">');
    expect(english).toMatch(/<form method="post" action="\/operator\/language" class="inline"><input type="hidden" name="language" value="fr"\/><input type="hidden" name="back" value="\/operator"\/>/);

    const chosen = await operator.call("/operator/language", { form: { language: "fr", back: "/operator/audit?before=9" } });
    expect(chosen.status).toBe(303);
    expect(chosen.headers.get("Location")).toBe("/operator/audit?before=9");
    const cookie = chosen.headers.getSetCookie()[0]!.split(";")[0]!;
    expect(cookie).toBe("jpa_operator_lang=fr");
    const french = await (await operator.call("/operator/audit", { headers: { Cookie: cookie } })).text();
    expect(french).toContain('<html lang="fr">');
    expect(french).toContain("<h1>Journal</h1>");
    expect((await operator.call("/operator", { headers: { "Accept-Language": "fr-CA,fr;q=0.9" } }).then((res) => res.text()))).toContain("<h1>Offres signalées</h1>");

    const elsewhere = await operator.call("/operator/language", { form: { language: "en", back: "https://evil.example/" } });
    expect(elsewhere.headers.get("Location")).toBe("/operator");
    expect((await operator.call("/operator/language", { form: { language: "de", back: "/operator" } })).status).toBe(422);
  });
});

describe("npm run dev's stand-in of Access (DESIGN 26a)", () => {
  async function standInKey() {
    const { privateKey, publicKey } = await generateKeyPair("RS256", { extractable: true });
    const kid = crypto.randomUUID();
    return { kid, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid }, privateJwk: JSON.stringify({ ...(await exportJWK(privateKey)), kid }) };
  }

  it("without its key (every deployed environment) /cdn-cgi/access/* answers the app's 404; with it, only a loopback host gets an answer", async () => {
    const expected = await appNotFound();
    const key = await standInKey();
    for (const path of ["/cdn-cgi/access/certs", "/cdn-cgi/access/dev-sign-in?token=a.b.c", "/cdn-cgi/access/logout"]) {
      for (const [origin, env] of [["http://localhost", {}], ["https://api.test", {}], ["https://api.test", { ACCESS_DEV_PRIVATE_JWK: key.privateJwk }], ["http://localhost", { ACCESS_DEV_PRIVATE_JWK: "" }]] as const) {
        const res = await operatorCall(`${origin}${path}`, { env });
        expect(await shapeOf(res), `${origin}${path} ${JSON.stringify(env)}`).toEqual(expected);
      }
    }
  });

  it("with its key, on this machine: its public key at /cdn-cgi/access/certs (no private member); dev-sign-in sets CF_Authorization and 303s to /operator; its tokens open the console when its origin is the team domain", async () => {
    const key = await standInKey();
    const env = { ACCESS_DEV_PRIVATE_JWK: key.privateJwk };
    const certs = await operatorCall("http://localhost:8787/cdn-cgi/access/certs", { env });
    expect(certs.status).toBe(200);
    const set = (await certs.json()) as { keys: Record<string, unknown>[] };
    expect(set.keys).toEqual([{ ...key.publicJwk, alg: "RS256", use: "sig" }]);
    for (const member of ["d", "p", "q", "dp", "dq", "qi"]) expect(set.keys[0]).not.toHaveProperty(member);

    // The Worker fetches the team's keys over the network: the stub serves what the stand-in published.
    const team = { name: `dev-${crypto.randomUUID().slice(0, 8)}`, audience: "dev-operator-console", key: { kid: key.kid, privateKey: key.privateKey, publicJwk: set.keys[0]! } };
    const standInTeam = { ...team, teamDomain: `https://${team.name}.access.test` };
    await publish(team.name, [team.key]);
    const token = await accessToken(standInTeam, { email: "dev@localhost.example" });

    const signIn = await operatorCall(`http://localhost:8787/cdn-cgi/access/dev-sign-in?token=${token}`, { env });
    expect(signIn.status).toBe(303);
    expect(signIn.headers.get("Location")).toBe("/operator");
    const cookie = signIn.headers.getSetCookie()[0]!;
    expect(cookie).toMatch(new RegExp(`^CF_Authorization=${token.replaceAll(".", "\\.")}; Path=/; HttpOnly; SameSite=Lax$`));
    expect((await operatorCall("http://localhost:8787/cdn-cgi/access/dev-sign-in?token=<script>", { env })).status).toBe(400);

    const opened = await operatorCall("http://localhost:8787/operator", { token, cookie: true, env: { ...env, ...settingsOf(standInTeam) } });
    expect(opened.status).toBe(200);
    expect(await opened.text()).toContain("Signed in as dev@localhost.example");
    // Other settings: its tokens are refused like any foreign token; empty: no console.
    expect((await operatorCall("http://localhost:8787/operator", { token, cookie: true, env: { ...env, ...settingsOf(standInTeam), ACCESS_AUD: "the-real-application" } })).status).toBe(403);
    expect((await operatorCall("http://localhost:8787/operator", { token, cookie: true, env: { ...env, ACCESS_TEAM_DOMAIN: "", ACCESS_AUD: "" } })).status).toBe(404);

    const signOut = await operatorCall("http://localhost:8787/cdn-cgi/access/logout", { env });
    expect(signOut.headers.getSetCookie()[0]).toMatch(/^CF_Authorization=; Max-Age=0; Path=\//);
  });
});
