import { BadRequestError } from "../http/problem";

export const IDEMPOTENCY_HEADER = "Idempotency-Key";
/** DESIGN 11: a key is remembered this long. */
export const KEY_LIFETIME_SECONDS = 24 * 60 * 60;

const BARE = /^[\x21-\x7e]{1,255}$/;
const QUOTED = /^"([\x20\x21\x23-\x7e]{1,255})"$/;

/**
 * The key, sent bare or as the draft's quoted string (the quotes are not part of it): 1 to 255
 * printable ASCII characters. Absent → undefined; anything else is a 400.
 */
export function parseIdempotencyKey(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const quoted = QUOTED.exec(header);
  if (quoted) return quoted[1];
  if (BARE.test(header) && !header.startsWith('"')) return header;
  throw new BadRequestError(`The ${IDEMPOTENCY_HEADER} header must be 1 to 255 printable ASCII characters (optionally in double quotes).`);
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
