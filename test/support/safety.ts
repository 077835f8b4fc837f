import { expect } from "vitest";

/**
 * What must never leave the service: stack frames, source positions, SQLite/D1 error codes,
 * SQL text (hand-written upper case or Drizzle's lower case), Drizzle's failure prefix.
 */
export const LEAK_PATTERNS: readonly RegExp[] = [
  /\bat [\w$.<>\[\] ]+ \(/, // "at handler (file:line)"
  /^\s*at /m,
  /\.(ts|js|mjs):\d+/,
  /SQLITE/i,
  /\bD1_[A-Z]/,
  /\bSELECT\b[\s\S]*\bFROM\b/i,
  /\bINSERT INTO\b/i,
  /\bUPDATE\b\s+["`\w]+\s+SET\b/i,
  /\bDELETE FROM\b/i,
  /Failed query/i,
  /\b(TypeError|RangeError|ReferenceError|SyntaxError):/,
];

export function leaksIn(text: string): RegExp[] {
  return LEAK_PATTERNS.filter((pattern) => pattern.test(text));
}

/**
 * The invariants every response keeps, whatever was sent: no 5xx; every error is an
 * RFC 9457 problem+json body with type, title, status (equal to the HTTP status) and detail;
 * no internals in any body. Returns the body text for further checks.
 */
export async function expectSafeResponse(res: Response, what: string): Promise<string> {
  const text = await res.text();
  expect(res.status, `${what} → ${res.status} ${text.slice(0, 300)}`).toBeLessThan(500);
  expect(leaksIn(text), `${what} leaked internals: ${text.slice(0, 300)}`).toEqual([]);
  expect(res.headers.get("X-Request-Id"), `${what} has no X-Request-Id`).toBeTruthy();
  if (res.status >= 400) {
    expect(res.headers.get("Content-Type"), what).toBe("application/problem+json");
    const problem = JSON.parse(text);
    expect(problem, what).toMatchObject({
      type: expect.any(String),
      title: expect.any(String),
      status: res.status,
      detail: expect.any(String),
    });
  }
  return text;
}
