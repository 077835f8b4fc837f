// Signing secrets (DESIGN 13): `whsec_` + standard padded base64 of 32 random bytes, shown
// once. At rest they are encrypted with AES-GCM under the Worker secret WEBHOOK_ENCRYPTION_KEY
// (base64 of 32 bytes): the secret must stay usable to sign, so it cannot be hashed.

const PREFIX = "whsec_";

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

export function newSigningSecret(): string {
  return PREFIX + toBase64(crypto.getRandomValues(new Uint8Array(32)));
}

/** The bytes an HMAC signs with: the base64 after `whsec_`, decoded (Standard Webhooks). */
export function secretBytes(secret: string): Uint8Array {
  return fromBase64(secret.slice(PREFIX.length));
}

const keys = new Map<string, Promise<CryptoKey>>();

function encryptionKey(base64Key: string | undefined): Promise<CryptoKey> {
  if (!base64Key) throw new Error("WEBHOOK_ENCRYPTION_KEY is not set (wrangler secret put WEBHOOK_ENCRYPTION_KEY).");
  let key = keys.get(base64Key);
  if (!key) {
    const raw = fromBase64(base64Key);
    if (raw.length !== 32) throw new Error("WEBHOOK_ENCRYPTION_KEY must be the base64 of 32 random bytes.");
    key = crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]);
    keys.set(base64Key, key);
  }
  return key;
}

/** `<iv>.<ciphertext>`, both base64; a fresh 96-bit IV every time. */
export async function encryptSecret(secret: string, base64Key: string | undefined): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt({ name: "AES-GCM", iv }, await encryptionKey(base64Key), new TextEncoder().encode(secret));
  return `${toBase64(iv)}.${toBase64(new Uint8Array(sealed))}`;
}

export async function decryptSecret(stored: string, base64Key: string | undefined): Promise<string> {
  const [iv, sealed] = stored.split(".");
  const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: fromBase64(iv) }, await encryptionKey(base64Key), fromBase64(sealed));
  return new TextDecoder().decode(plain);
}
