export const DAY_SECONDS = 86_400;
/** Spec 8: closeDate defaults to 60 days after publishDate. */
export const DEFAULT_OPEN_SECONDS = 60 * DAY_SECONDS;

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** Unix seconds → `2026-11-21T14:03:00Z`. */
export function formatDate(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/**
 * closeDate as written: a date, or a date-time with `Z` or an offset (`T` and `Z` in either
 * case). Also the document's `pattern` for closeDate (src/jobs/schemas.ts), so it has no flags.
 */
export const CLOSE_DATE_FORM = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?([Zz]|[+-]\d{2}:\d{2}))?$/;

function utcSeconds(y: number, mo: number, d: number, h: number, mi: number, s: number): number | undefined {
  if (mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 59) return undefined;
  const ms = Date.UTC(y, mo - 1, d, h, mi, s);
  // Date.UTC rolls 2026-02-30 over to March: an impossible date does not survive the trip.
  if (new Date(ms).getUTCDate() !== d) return undefined;
  return ms / 1000;
}

/**
 * closeDate input: `2026-12-31` (meaning 23:59:59 UTC that day) or an ISO 8601 date-time with
 * `Z` or an offset (converted to UTC; fractions of a second dropped). Anything else: undefined.
 */
export function parseCloseDate(text: string): number | undefined {
  const form = CLOSE_DATE_FORM.exec(text);
  if (!form) return undefined;
  const [, y, mo, d, h, mi, s = "0", zone] = form;
  if (h === undefined) return utcSeconds(Number(y), Number(mo), Number(d), 23, 59, 59);
  const local = utcSeconds(Number(y), Number(mo), Number(d), Number(h), Number(mi), Number(s));
  if (local === undefined) return undefined;
  if (zone.toUpperCase() === "Z") return local;
  const [oh, om] = zone.slice(1).split(":").map(Number);
  if (oh > 23 || om > 59) return undefined;
  const offset = (oh * 60 + om) * 60;
  return zone[0] === "+" ? local - offset : local + offset;
}
