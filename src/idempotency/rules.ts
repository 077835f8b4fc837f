import { BadRequestError } from "../http/problem";

export const IDEMPOTENCY_HEADER = "Idempotency-Key";
/** DESIGN 11: a key is remembered this long. */
export const KEY_LIFETIME_SECONDS = 24 * 60 * 60;

/**
 * DESIGN 11: the header's value: a key of 1 to 255 printable ASCII characters, sent bare (not
 * starting with a quote) or as the draft's quoted string (the quotes are not part of it; no quote
 * inside). Also the header's documented `pattern` (src/idempotency/schemas.ts), so it has no flags.
 */
export const IDEMPOTENCY_KEY_FORM = /^(?:[\x21\x23-\x7e][\x21-\x7e]{0,254}|"[\x20\x21\x23-\x7e]{1,255}")$/;
export const IDEMPOTENCY_KEY_MESSAGE = `The ${IDEMPOTENCY_HEADER} header must be 1 to 255 printable ASCII characters (optionally in double quotes).`;

/**
 * The key, without the quotes it may be sent in. Absent → undefined; a value the pattern refuses
 * is a 400 (the routes' header schema refuses it first, with the same pattern and message).
 */
export function parseIdempotencyKey(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (!IDEMPOTENCY_KEY_FORM.test(header)) throw new BadRequestError(IDEMPOTENCY_KEY_MESSAGE);
  return header.startsWith('"') ? header.slice(1, -1) : header;
}

/**
 * JSON with object members in a fixed order, so two bodies that parse the same hash the same.
 * Recursive: every body reaching it was read by requireJsonBody, which refuses one nested
 * deeper than 64 levels (DESIGN 6b), so its depth is bounded.
 */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const members = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${members.join(",")}}`;
  }
  return JSON.stringify(value);
}

/** What makes two requests "the same" for a key: the operation and the body compared as parsed JSON. */
export async function requestHash(operation: string, body: unknown): Promise<string> {
  const bytes = new TextEncoder().encode(`${operation}\n${canonicalJson(body)}`);
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
