import { env } from "cloudflare:workers";
import { isoBase64URL, isoCBOR, isoUint8Array } from "@simplewebauthn/server/helpers";
import { describe, expect, it } from "vitest";
import { hashToken } from "../src/accounts/tokens";
import { PASSKEYS_SCRIPT_PATH } from "../src/console/passkeys/browser-script";
import { BASE, createEmployer } from "./support/api";
import { call, sessionCookieOf, signedIn } from "./support/console";

// DESIGN 25, 25a: passkeys in the employer console, driven over HTTP through the Worker's entry
// with real WebAuthn credentials: an authenticator made here with WebCrypto (an ES256 key pair,
// `none` attestation, CBOR by @simplewebauthn/server's own codec), as a browser's would answer.

let counter = 0;
const address = () => `passkey${++counter}.${crypto.randomUUID().slice(0, 8)}@example.com`;
const RP_ID = new URL(BASE).hostname;
/** Bytes as WebCrypto's and the library's types take them (they are never shared memory here). */
const buffer = (data: Uint8Array) => data as Uint8Array<ArrayBuffer>;
const bytes = (text: string) => buffer(new TextEncoder().encode(text));
const sha256 = async (data: Uint8Array) => new Uint8Array(await crypto.subtle.digest("SHA-256", buffer(data)));
/** A big-endian unsigned 32-bit integer, as authenticator data carries its counter. */
const uint32 = (value: number) => new Uint8Array([value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255]);

/** An ECDSA signature as WebAuthn carries it: ASN.1 DER, SEQUENCE of the INTEGERs r and s (WebCrypto gives r ‖ s). */
function derSignature(raw: Uint8Array) {
  const integer = (part: Uint8Array) => {
    let start = 0;
    while (start < part.length - 1 && part[start] === 0) start++;
    const trimmed = part.slice(start);
    const value = trimmed[0] & 0x80 ? isoUint8Array.concat([new Uint8Array([0]), trimmed]) : trimmed;
    return isoUint8Array.concat([new Uint8Array([0x02, value.length]), value]);
  };
  const body = isoUint8Array.concat([integer(raw.slice(0, 32)), integer(raw.slice(32))]);
  return buffer(isoUint8Array.concat([new Uint8Array([0x30, body.length]), body]));
}

type Options = { challenge: string };

/** A platform authenticator with one discoverable credential, answering as the browser hands its answers to the page. */
class Authenticator {
  readonly credentialId = crypto.getRandomValues(new Uint8Array(32));
  signCount = 0;
  userHandle: string | undefined;
  private constructor(private readonly keys: CryptoKeyPair) {}

  static async make() {
    return new Authenticator((await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair);
  }

  get id() {
    return isoBase64URL.fromBuffer(this.credentialId);
  }

  private clientData(type: "webauthn.create" | "webauthn.get", challenge: string, origin: string) {
    return bytes(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /** navigator.credentials.create: `none` attestation of a new ES256 credential. */
  async register(options: Options & { user: { id: string } }, origin = BASE) {
    this.userHandle = options.user.id;
    const raw = new Uint8Array((await crypto.subtle.exportKey("raw", this.keys.publicKey)) as ArrayBuffer);
    // COSE_Key: kty EC2, alg ES256, crv P-256, x, y.
    const publicKey = isoCBOR.encode(new Map<number, number | Uint8Array>([[1, 2], [3, -7], [-1, 1], [-2, raw.slice(1, 33)], [-3, raw.slice(33)]]));
    const attested = isoUint8Array.concat([new Uint8Array(16), new Uint8Array([0, this.credentialId.length]), this.credentialId, publicKey]);
    // Flags: user present, user verified, attested credential data.
    const authData = isoUint8Array.concat([await sha256(bytes(RP_ID)), new Uint8Array([0x45]), uint32(this.signCount), attested]);
    const attestationObject = isoCBOR.encode(new Map<string, unknown>([["fmt", "none"], ["attStmt", new Map()], ["authData", authData]]) as never);
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key",
      response: { clientDataJSON: isoBase64URL.fromBuffer(this.clientData("webauthn.create", options.challenge, origin)), attestationObject: isoBase64URL.fromBuffer(attestationObject), transports: ["internal"] },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    };
  }

  /** navigator.credentials.get: an assertion over the options' challenge, its counter moved on (unless told one). */
  async assert(options: Options, given: { signCount?: number; origin?: string; userHandle?: string } = {}) {
    const signCount = given.signCount ?? ++this.signCount;
    const authData = buffer(isoUint8Array.concat([await sha256(bytes(RP_ID)), new Uint8Array([0x05]), uint32(signCount)]));
    const clientData = this.clientData("webauthn.get", options.challenge, given.origin ?? BASE);
    const signed = isoUint8Array.concat([authData, await sha256(clientData)]);
    const signature = new Uint8Array(await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, this.keys.privateKey, buffer(signed)));
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key",
      response: {
        clientDataJSON: isoBase64URL.fromBuffer(clientData),
        authenticatorData: isoBase64URL.fromBuffer(authData),
        signature: isoBase64URL.fromBuffer(derSignature(signature)),
        userHandle: given.userHandle ?? this.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    };
  }
}

/** A signed-in person's new passkey, added through the routes; the authenticator that holds it. */
async function addPasskey(cookie: string, name = "Work laptop") {
  const authenticator = await Authenticator.make();
  const options = await (await call("/employer/passkeys/options", { cookie, json: {} })).json<Options & { user: { id: string } }>();
  const added = await call("/employer/passkeys", { cookie, json: { name, credential: await authenticator.register(options) } });
  expect(added.status).toBe(201);
  return authenticator;
}

const signInOptions = async () => (await call("/employer/sign-in/passkey/options", { json: {} })).json<Options>();

/** Signs in with the authenticator's passkey: the answer. */
async function signInWith(authenticator: Authenticator, extra: Record<string, unknown> = {}) {
  return call("/employer/sign-in/passkey", { json: { credential: await authenticator.assert(await signInOptions()), ...extra } });
}

/** A refusal as DESIGN 25a wants it: a JSON problem of this status, and no session. */
async function expectRefused(res: Response, status: number) {
  expect(res.status).toBe(status);
  expect(res.headers.get("Content-Type")).toBe("application/problem+json");
  expect((await res.json<{ status: number }>()).status).toBe(status);
  expect(sessionCookieOf(res)).toBeUndefined();
}

const passkeyRows = (email: string) =>
  env.ACCOUNTS_DB.prepare("SELECT k.id, k.name, k.counter, k.transports, k.last_used_at AS lastUsedAt FROM passkeys k JOIN people p ON p.id = k.person_id WHERE p.email = ? ORDER BY k.id")
    .bind(email)
    .all<{ id: number; name: string; counter: number; transports: string; lastUsedAt: number | null }>()
    .then((result) => result.results);

describe("adding passkeys (DESIGN 25: a person adds passkeys once signed in)", () => {
  it("POST /employer/passkeys/options: registration options — rpID the request's host name, rpName BOARD_NAME, the person as the user, their passkeys excluded", async () => {
    const employer = await createEmployer();
    const email = address();
    const cookie = await signedIn(employer.employerId, email);
    const res = await call("/employer/passkeys/options", { cookie, json: {} });
    expect(res.status).toBe(200);
    const options = await res.json<{ rp: { id: string; name: string }; user: { name: string }; challenge: string; excludeCredentials: unknown[]; authenticatorSelection: { residentKey: string } }>();
    expect(options.rp).toEqual({ id: "api.test", name: "Job Board" });
    expect(options.user.name).toBe(email);
    expect(options.challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(options.excludeCredentials).toEqual([]);
    expect(options.authenticatorSelection.residentKey).toBe("required");

    const authenticator = await addPasskey(cookie);
    const again = await (await call("/employer/passkeys/options", { cookie, json: {} })).json<{ excludeCredentials: unknown[] }>();
    expect(again.excludeCredentials).toEqual([{ id: authenticator.id, type: "public-key", transports: ["internal"] }]);
  });

  it("POST /employer/passkeys verifies the browser's credential and stores it; GET /employer/passkeys lists name, added and last used", async () => {
    const employer = await createEmployer();
    const email = address();
    const cookie = await signedIn(employer.employerId, email);
    const empty = await (await call("/employer/passkeys", { cookie })).text();
    expect(empty).toContain("You have no passkey yet.");

    await addPasskey(cookie, "  Work laptop  ");
    const rows = await passkeyRows(email);
    expect(rows).toEqual([{ id: expect.any(Number), name: "Work laptop", counter: 0, transports: '["internal"]', lastUsedAt: null }]);
    const page = await call("/employer/passkeys?added", { cookie });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<p role="status" class="notice">Passkey added. Next time, sign in with it.</p>');
    expect(html).toMatch(/<caption>Your passkeys<\/caption>/);
    expect(html).toMatch(/<td>Work laptop<\/td><td>[A-Z][a-z]+ \d{1,2}, \d{4}<\/td><td>Never<\/td>/);
    expect(html).toContain(`action="/employer/passkeys/${rows[0].id}/remove"`);
    expect(html).toContain('aria-label="Remove Work laptop"');
  });

  it("keeps only WebAuthn's transport hints of the browser's credential", async () => {
    const employer = await createEmployer();
    const email = address();
    const cookie = await signedIn(employer.employerId, email);
    const options = await (await call("/employer/passkeys/options", { cookie, json: {} })).json<Options & { user: { id: string } }>();
    const credential = await (await Authenticator.make()).register(options);
    const given = { ...credential, response: { ...credential.response, transports: ["hybrid", "teleport", 5, "usb"] } };
    expect((await call("/employer/passkeys", { cookie, json: { credential: given } })).status).toBe(201);
    expect((await passkeyRows(email))[0].transports).toBe('["hybrid","usb"]');
    expect((await call("/employer/passkeys/options", { cookie, json: {} })).status).toBe(200);
  });

  it("a passkey with no name gets one in the person's language; a name over 60 characters: 400, nothing stored", async () => {
    const employer = await createEmployer();
    const email = address();
    const cookie = await signedIn(employer.employerId, email, { lang: "fr" });
    await addPasskey(cookie, "");
    expect((await passkeyRows(email)).map((row) => row.name)).toEqual(["Clé d'accès"]);
    const authenticator = await Authenticator.make();
    const options = await (await call("/employer/passkeys/options", { cookie, json: {} })).json<Options & { user: { id: string } }>();
    await expectRefused(await call("/employer/passkeys", { cookie, json: { name: "x".repeat(61), credential: await authenticator.register(options) } }), 400);
    expect(await passkeyRows(email)).toHaveLength(1);
  });

  it("a credential answering no challenge of this person's (another person's, or one used already) is refused with 400, nothing stored", async () => {
    const employer = await createEmployer();
    const [alice, bob] = [address(), address()];
    const [aliceCookie, bobCookie] = [await signedIn(employer.employerId, alice), await signedIn(employer.employerId, bob)];
    const authenticator = await Authenticator.make();
    const bobsOptions = await (await call("/employer/passkeys/options", { cookie: bobCookie, json: {} })).json<Options & { user: { id: string } }>();
    await expectRefused(await call("/employer/passkeys", { cookie: aliceCookie, json: { credential: await authenticator.register(bobsOptions) } }), 400);

    const options = await (await call("/employer/passkeys/options", { cookie: aliceCookie, json: {} })).json<Options & { user: { id: string } }>();
    const credential = await authenticator.register(options);
    expect((await call("/employer/passkeys", { cookie: aliceCookie, json: { credential } })).status).toBe(201);
    await expectRefused(await call("/employer/passkeys", { cookie: aliceCookie, json: { credential } }), 400);
    expect(await passkeyRows(alice)).toHaveLength(1);
    expect(await passkeyRows(bob)).toHaveLength(0);
  });

  it("a credential stored already, answering a new challenge: 409, stored once", async () => {
    const employer = await createEmployer();
    const email = address();
    const cookie = await signedIn(employer.employerId, email);
    const authenticator = await addPasskey(cookie);
    const options = await (await call("/employer/passkeys/options", { cookie, json: {} })).json<Options & { user: { id: string } }>();
    const again = await call("/employer/passkeys", { cookie, json: { credential: await authenticator.register(options) } });
    expect(again.status).toBe(409);
    expect((await again.json<{ type: string }>()).type).toBe("/problems/passkey-exists");
    expect(await passkeyRows(email)).toHaveLength(1);
  });

  it("a credential made for another origin is refused with 400", async () => {
    const employer = await createEmployer();
    const email = address();
    const cookie = await signedIn(employer.employerId, email);
    const options = await (await call("/employer/passkeys/options", { cookie, json: {} })).json<Options & { user: { id: string } }>();
    const credential = await (await Authenticator.make()).register(options, "https://evil.example");
    await expectRefused(await call("/employer/passkeys", { cookie, json: { credential } }), 400);
    expect(await passkeyRows(email)).toHaveLength(0);
  });

  it("a recruiter can add passkeys too, and signs in with one as a recruiter", async () => {
    const employer = await createEmployer();
    const email = address();
    const cookie = await signedIn(employer.employerId, email, { role: "recruiter" });
    expect((await call("/employer/passkeys", { cookie })).status).toBe(200);
    const authenticator = await addPasskey(cookie);
    const signedInAgain = sessionCookieOf(await signInWith(authenticator))!;
    expect(await (await call("/employer", { cookie: signedInAgain })).text()).toContain(`Signed in as ${email}, recruiter.`);
  });

  it("without a session the passkeys page and its options answer 303 to sign-in", async () => {
    expect((await call("/employer/passkeys")).headers.get("Location")).toBe("/employer/sign-in?next=%2Femployer%2Fpasskeys");
    expect((await call("/employer/passkeys/options", { json: {} })).status).toBe(303);
  });
});

describe("signing in with a passkey (DESIGN 25: then signs in with one and no email)", () => {
  it("POST /employer/sign-in/passkey/options names no one; POST /employer/sign-in/passkey verifies the assertion, starts a session as the link does and answers { next: '/employer' }", async () => {
    const employer = await createEmployer({ name: "Passkey Ltd." });
    const email = address();
    const authenticator = await addPasskey(await signedIn(employer.employerId, email));

    const optionsRes = await call("/employer/sign-in/passkey/options", { json: {} });
    expect(optionsRes.status).toBe(200);
    const options = await optionsRes.json<{ challenge: string; rpId: string; allowCredentials?: unknown[] }>();
    expect(options.rpId).toBe("api.test");
    expect(options.allowCredentials ?? []).toEqual([]);

    const res = await call("/employer/sign-in/passkey", { json: { credential: await authenticator.assert(options) } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ next: "/employer" });
    const cookie = sessionCookieOf(res)!;
    expect(cookie).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(res.headers.getSetCookie()[0]).toMatch(/; HttpOnly; Secure; SameSite=Lax$/);
    const home = await call("/employer", { cookie });
    expect(home.status).toBe(200);
    expect(await home.text()).toContain(`Signed in as ${email}, administrator.`);

    const [row] = await passkeyRows(email);
    expect(row.counter).toBe(1);
    expect(row.lastUsedAt).toBeGreaterThan(Date.now() - 60_000);
    expect(await (await call("/employer/passkeys", { cookie })).text()).not.toContain("<td>Never</td>");
  });

  it("answers the `next` it was given when it is a console path, else /employer", async () => {
    const employer = await createEmployer();
    const authenticator = await addPasskey(await signedIn(employer.employerId, address()));
    expect(await (await signInWith(authenticator, { next: "/employer/jobs?q=x" })).json()).toEqual({ next: "/employer/jobs?q=x" });
    expect(await (await signInWith(authenticator, { next: "https://evil.example/employer" })).json()).toEqual({ next: "/employer" });
  });

  it("a replayed assertion — the same challenge and counter — is refused: 401 problem, no session", async () => {
    const employer = await createEmployer();
    const authenticator = await addPasskey(await signedIn(employer.employerId, address()));
    const credential = await authenticator.assert(await signInOptions());
    expect((await call("/employer/sign-in/passkey", { json: { credential } })).status).toBe(200);
    await expectRefused(await call("/employer/sign-in/passkey", { json: { credential } }), 401);
    // An authenticator that keeps no counter (always 0): its challenge alone stops the replay.
    const counterless = await addPasskey(await signedIn(employer.employerId, address()));
    const once = await counterless.assert(await signInOptions(), { signCount: 0 });
    expect((await call("/employer/sign-in/passkey", { json: { credential: once } })).status).toBe(200);
    await expectRefused(await call("/employer/sign-in/passkey", { json: { credential: once } }), 401);
    // A fresh challenge signed with a counter that did not move on (a cloned authenticator): refused too.
    await expectRefused(await call("/employer/sign-in/passkey", { json: { credential: await authenticator.assert(await signInOptions(), { signCount: authenticator.signCount }) } }), 401);
  });

  it("an expired challenge, an unknown credential, a forged signature, another origin or another person's user handle: 401 problem, never 500, no session", async () => {
    const employer = await createEmployer();
    const authenticator = await addPasskey(await signedIn(employer.employerId, address()));

    const expiring = await signInOptions();
    await env.ACCOUNTS_DB.prepare("UPDATE passkey_challenges SET expires_at = ? WHERE challenge_hash = ?").bind(Date.now() - 1, await hashToken(expiring.challenge)).run();
    await expectRefused(await call("/employer/sign-in/passkey", { json: { credential: await authenticator.assert(expiring) } }), 401);

    const stranger = await Authenticator.make();
    await expectRefused(await call("/employer/sign-in/passkey", { json: { credential: await stranger.assert(await signInOptions()) } }), 401);

    const forged = await authenticator.assert(await signInOptions());
    forged.response.signature = (await stranger.assert({ challenge: "x" })).response.signature;
    await expectRefused(await call("/employer/sign-in/passkey", { json: { credential: forged } }), 401);

    await expectRefused(await call("/employer/sign-in/passkey", { json: { credential: await authenticator.assert(await signInOptions(), { origin: "https://evil.example" }) } }), 401);
    await expectRefused(await call("/employer/sign-in/passkey", { json: { credential: await authenticator.assert(await signInOptions(), { userHandle: isoBase64URL.fromUTF8String("999999") }) } }), 401);
    // Still works after all of them.
    expect((await signInWith(authenticator)).status).toBe(200);
  });

  it("bad bodies: 400 or 415 problem, never 500, no session", async () => {
    const challenge = (await signInOptions()).challenge;
    await expectRefused(await call("/employer/sign-in/passkey", { json: {} }), 400);
    await expectRefused(await call("/employer/sign-in/passkey", { json: [1] }), 400);
    await expectRefused(await call("/employer/sign-in/passkey", { json: { credential: "x" } }), 400);
    await expectRefused(await call("/employer/sign-in/passkey", { form: { credential: "x" } }), 415);
    // Shaped wrong inside: WebAuthn's checks refuse it.
    const clientDataJSON = isoBase64URL.fromUTF8String(JSON.stringify({ type: "webauthn.get", challenge, origin: BASE }));
    await expectRefused(await call("/employer/sign-in/passkey", { json: { credential: { id: 5, response: { clientDataJSON } } } }), 401);
    await expectRefused(await call("/employer/sign-in/passkey", { json: { credential: { id: "abc", response: { clientDataJSON: "%%%" } } } }), 401);
  });

  it("every passkey POST needs the console's Origin: another one gets 403", async () => {
    expect((await call("/employer/sign-in/passkey/options", { json: {}, origin: "https://evil.example" })).status).toBe(403);
    expect((await call("/employer/sign-in/passkey", { json: {}, origin: "https://evil.example" })).status).toBe(403);
  });
});

describe("removing passkeys (DESIGN 25a: POST /employer/passkeys/{id}/remove)", () => {
  it("removes it (303 back, a notice): it no longer signs in", async () => {
    const employer = await createEmployer();
    const email = address();
    const cookie = await signedIn(employer.employerId, email);
    const authenticator = await addPasskey(cookie);
    const [row] = await passkeyRows(email);
    const removed = await call(`/employer/passkeys/${row.id}/remove`, { cookie, form: {} });
    expect(removed.status).toBe(303);
    expect(removed.headers.get("Location")).toBe("/employer/passkeys?removed");
    expect(await (await call("/employer/passkeys?removed", { cookie })).text()).toContain("Passkey removed: it no longer signs you in here.");
    expect(await passkeyRows(email)).toEqual([]);
    await expectRefused(await signInWith(authenticator), 401);
  });

  it("another person's passkey id (of the same employer or another): 404, and it stays", async () => {
    const employer = await createEmployer();
    const owner = address();
    await addPasskey(await signedIn(employer.employerId, owner));
    const [row] = await passkeyRows(owner);
    const colleague = await signedIn(employer.employerId, address());
    const stranger = await signedIn((await createEmployer()).employerId, address());
    for (const cookie of [colleague, stranger]) {
      const res = await call(`/employer/passkeys/${row.id}/remove`, { cookie, form: {} });
      expect(res.status).toBe(404);
      expect(res.headers.get("Content-Type")).toMatch(/^text\/html/);
    }
    expect((await call("/employer/passkeys/not-a-number/remove", { cookie: colleague, form: {} })).status).toBe(404);
    expect(await passkeyRows(owner)).toHaveLength(1);
  });
});

describe("the passkey script (DESIGN 25: scripts are the console's own files, no unsafe-inline)", () => {
  it("the sign-in and passkeys pages load it from its content address, their forms hidden as served (without JavaScript nothing of passkeys shows); their CSP allows only 'self'", async () => {
    const employer = await createEmployer();
    const cookie = await signedIn(employer.employerId, address());
    for (const res of [await call("/employer/sign-in?next=%2Femployer%2Fjobs"), await call("/employer/passkeys", { cookie })]) {
      const html = await res.text();
      expect(html).toContain(`<script src="${PASSKEYS_SCRIPT_PATH}" defer=""></script>`);
      const csp = res.headers.get("Content-Security-Policy")!;
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toMatch(/unsafe-inline|script-src 'self' /);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(res.headers.get("Cache-Control")).toBe("no-store");
    }
    const signIn = await (await call("/employer/sign-in?next=%2Femployer%2Fjobs")).text();
    expect(signIn).toMatch(/<form id="passkey-sign-in" method="post" action="\/employer\/sign-in\/passkey" hidden="" data-next="\/employer\/jobs"/);
    expect(await (await call("/employer/passkeys", { cookie })).text()).toMatch(/<form id="passkey-add" method="post" action="\/employer\/passkeys" hidden=""/);
    // The other console pages run no script.
    expect((await call("/employer", { cookie })).headers.get("Content-Security-Policy")).not.toContain("script-src");
  });

  it("is served with a year's cache, as JavaScript: the WebAuthn library, then the console's own script", async () => {
    expect(PASSKEYS_SCRIPT_PATH).toMatch(/^\/assets\/passkeys\.[0-9a-f]{12}\.js$/);
    const res = await call(PASSKEYS_SCRIPT_PATH);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/javascript; charset=utf-8");
    expect(res.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    const script = await res.text();
    expect(script.indexOf("SimpleWebAuthnBrowser")).toBeGreaterThan(0);
    expect(script.indexOf("passkey-sign-in")).toBeGreaterThan(script.indexOf("SimpleWebAuthnBrowser"));
  });

  it("in French: the page and the words the script shows", async () => {
    const employer = await createEmployer();
    const cookie = await signedIn(employer.employerId, address(), { lang: "fr" });
    const html = await (await call("/employer/passkeys", { cookie })).text();
    expect(html).toContain("<h1>Clés d&#39;accès</h1>");
    expect(html).toContain('data-cancelled="Rien n');
    expect(await (await call("/employer/sign-in?lang=fr")).text()).toContain("Me connecter avec une clé d&#39;accès");
  });
});
