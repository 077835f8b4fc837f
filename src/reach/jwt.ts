import type { ServiceAccount } from "./settings";

// DESIGN 24a: the assertion a service account sends to Google's token endpoint: a JWT signed
// RS256 (RSASSA-PKCS1-v1_5 with SHA-256) by Web Crypto, with the account's PKCS #8 private key.

export const INDEXING_SCOPE = "https://www.googleapis.com/auth/indexing";
/** The assertion is valid this long: Google accepts at most an hour. */
export const ASSERTION_SECONDS = 3600;

const base64url = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes)).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
const encodeJson = (value: unknown) => base64url(new TextEncoder().encode(JSON.stringify(value)));

/** The DER bytes of a PEM block (`-----BEGIN PRIVATE KEY-----` …). */
function derOf(pem: string): Uint8Array {
  const body = pem.replace(/-----(BEGIN|END) [A-Z ]+-----/g, "").replace(/\s+/g, "");
  return Uint8Array.from(atob(body), (ch) => ch.charCodeAt(0));
}

/** Imported keys, per isolate: importing is the costly part and the key never changes between sends. */
const imported = new Map<string, Promise<CryptoKey>>();

function signingKeyOf(pem: string): Promise<CryptoKey> {
  let key = imported.get(pem);
  if (!key) {
    key = crypto.subtle.importKey("pkcs8", derOf(pem), { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" }, false, ["sign"]);
    // A key that does not import is not kept: the next try (after the setting is fixed) imports again.
    key.catch(() => imported.delete(pem));
    imported.set(pem, key);
  }
  return key;
}

/** The signed JWT: iss the account, scope Indexing, aud the token endpoint, iat now, exp an hour later. */
export async function signedAssertion(account: ServiceAccount, tokenEndpoint: string, nowMs: number): Promise<string> {
  const iat = Math.floor(nowMs / 1000);
  const claims = { iss: account.client_email, scope: INDEXING_SCOPE, aud: tokenEndpoint, iat, exp: iat + ASSERTION_SECONDS };
  const unsigned = `${encodeJson({ alg: "RS256", typ: "JWT" })}.${encodeJson(claims)}`;
  const signature = await crypto.subtle.sign("RSASSA-PKCS1-v1_5", await signingKeyOf(account.private_key), new TextEncoder().encode(unsigned));
  return `${unsigned}.${base64url(new Uint8Array(signature))}`;
}
