// DESIGN 23: the tokens in alert links (confirm, manage/unsubscribe, feed). Each is 256 bits,
// derived from the alert's random 128-bit nonce with the Worker secret ALERTS_TOKEN_KEY (HMAC):
// the database keeps only the nonce and each token's SHA-256, so neither a copy of the database
// nor the logs can rebuild a link, while every later email can still carry the same links
// (valid as long as the alert is kept: at least 60 days after its last email).

export type TokenPurpose = "confirm" | "manage" | "feed";

const encoder = new TextEncoder();
const base64url = (bytes: ArrayBuffer | Uint8Array) =>
  btoa(String.fromCharCode(...new Uint8Array(bytes))).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
const hex = (bytes: ArrayBuffer) => [...new Uint8Array(bytes)].map((byte) => byte.toString(16).padStart(2, "0")).join("");

/** A new alert's nonce: 128 random bits. */
export const newNonce = () => base64url(crypto.getRandomValues(new Uint8Array(16)));

const keys = new Map<string, Promise<CryptoKey>>();
function keyOf(secret: string | undefined): Promise<CryptoKey> {
  if (!secret) throw new Error("ALERTS_TOKEN_KEY is not set: alert links cannot be made (docs/alerts.md: settings).");
  let key = keys.get(secret);
  if (!key) {
    const raw = Uint8Array.from(atob(secret), (ch) => ch.charCodeAt(0));
    key = crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    keys.set(secret, key);
  }
  return key;
}

export async function tokenOf(secret: string | undefined, purpose: TokenPurpose, nonce: string): Promise<string> {
  return base64url(await crypto.subtle.sign("HMAC", await keyOf(secret), encoder.encode(`alerts:${purpose}:${nonce}`)));
}

/** What the database keeps of a token: its SHA-256, hex. */
export async function hashOf(token: string): Promise<string> {
  return hex(await crypto.subtle.digest("SHA-256", encoder.encode(token)));
}

export async function sha256Hex(text: string): Promise<string> {
  return hex(await crypto.subtle.digest("SHA-256", encoder.encode(text)));
}

/** A token as links carry it: 43 base64url characters. Anything else is no token (and never reaches the database). */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
