// Pure rules of webhook endpoints and their delivery (DESIGN 13, 13a); the retry schedule is
// events' delivery contract (src/events/retry-schedule.ts).

export const MAX_ENDPOINTS = 10;
export const MAX_URL_LENGTH = 2000;
export const ATTEMPT_TIMEOUT_MS = 10_000;
/** An endpoint whose deliveries have all failed this long is disabled. */
export const DISABLE_AFTER_MS = 5 * 24 * 60 * 60 * 1000;
export const LOG_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

function ipv4Blocked(parts: number[]): boolean {
  const [a, b] = parts;
  return (
    a === 0 || a === 10 || a === 127 || (a === 100 && b >= 64 && b <= 127) || (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 192 && b === 0) ||
    (a === 198 && (b === 18 || b === 19)) || a >= 224
  );
}

/** Private, loopback, link-local or reserved: an address a webhook may not be sent to. */
function isBlockedAddress(hostname: string): boolean {
  const v4 = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(hostname);
  if (v4) return ipv4Blocked(v4.slice(1).map(Number));
  if (!hostname.startsWith("[")) return false;
  const v6 = hostname.slice(1, -1).toLowerCase();
  // IPv4-mapped (::ffff:a.b.c.d, which the URL parser writes as ::ffff:xxxx:xxxx) and the rest.
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(v6);
  if (mapped) {
    const [hi, lo] = [parseInt(mapped[1], 16), parseInt(mapped[2], 16)];
    return ipv4Blocked([hi >> 8, hi & 255, lo >> 8, lo & 255]);
  }
  return (
    v6 === "::" || v6 === "::1" || /^f[cd]/.test(v6) || /^fe[89ab]/.test(v6) || /^ff/.test(v6) ||
    v6.startsWith("::ffff:") || v6.startsWith("64:ff9b:") || v6.startsWith("2001:db8:") || v6.startsWith("100::")
  );
}

const isLocalName = (hostname: string) => hostname === "localhost" || hostname.endsWith(".localhost");
const isLoopback = (hostname: string) => isLocalName(hostname) || hostname === "[::1]" || /^127\./.test(hostname);

/**
 * Why `url` may not receive webhooks (DESIGN 13), or null when it may: https only, no
 * credentials, at most 2 000 characters, not an IP literal in a private, loopback, link-local or
 * reserved range (in any spelling the URL parser normalises: decimal, octal, hex, IPv4-mapped),
 * not localhost. `allowInsecure` (local development only) also allows http:// and loopback.
 */
export function urlProblem(url: string, allowInsecure: boolean): string | null {
  if ([...url].length > MAX_URL_LENGTH) return `url must be at most ${MAX_URL_LENGTH} characters.`;
  const parsed = URL.parse(url);
  if (!parsed || !/^https?:\/\//i.test(url)) return "url must be an absolute https:// address.";
  if (parsed.username || parsed.password) return "url must not carry credentials.";
  const loopback = isLoopback(parsed.hostname);
  if (allowInsecure && loopback) return null;
  if (parsed.protocol !== "https:" && !allowInsecure) return "url must use https://.";
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return "url must use https://.";
  if (isLocalName(parsed.hostname)) return "url must not point at localhost.";
  if (isBlockedAddress(parsed.hostname)) return "url must not point at a private, loopback, link-local or reserved address.";
  return null;
}
