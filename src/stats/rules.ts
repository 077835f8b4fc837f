import type { FieldError } from "../http/problem";

// DESIGN 21a: the stats' date range, pure. UTC dates, inclusive, at most 366 days, default the
// last 30 days up to today.

export const MAX_RANGE_DAYS = 366;
const DEFAULT_DAYS = 30;
export const DAY_MS = 86_400_000;
/** A day as the parameters write it; also their documented `pattern` (src/stats/schemas.ts). */
export const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** Why `from` or `to` is refused, for the schema's pattern and for a date that does not exist. */
export const dateMessage = (name: "from" | "to") => `${name} must be a date written YYYY-MM-DD (UTC).`;

/** Days since 1970-01-01 of a YYYY-MM-DD date; undefined for anything else (2026-02-30 too). */
export function dayNumber(text: string): number | undefined {
  const parts = DATE.exec(text);
  if (!parts) return undefined;
  const ms = Date.UTC(Number(parts[1]), Number(parts[2]) - 1, Number(parts[3]));
  return new Date(ms).toISOString().slice(0, 10) === text ? ms / DAY_MS : undefined;
}

export const dateOf = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);
/** The UTC day (days since 1970-01-01) of a moment in milliseconds. */
export const dayOf = (ms: number) => Math.floor(ms / DAY_MS);

/** The range asked for, as day numbers, or an error naming each parameter at fault. */
export function rangeOf(query: { from?: string; to?: string }, today: number): { from: number; to: number } | { errors: FieldError[] } {
  const errors: FieldError[] = [];
  const parsed = (name: "from" | "to") => {
    const text = query[name];
    if (text === undefined) return undefined;
    const day = dayNumber(text);
    if (day === undefined) errors.push({ field: name, message: dateMessage(name) });
    return day;
  };
  const given = { from: parsed("from"), to: parsed("to") };
  if (errors.length) return { errors };
  const to = given.to ?? (given.from !== undefined && given.from > today ? given.from : today);
  const from = given.from ?? to - (DEFAULT_DAYS - 1);
  if (from > to) return { errors: [{ field: "from", message: "from must be on or before to." }] };
  if (to - from + 1 > MAX_RANGE_DAYS) return { errors: [{ field: query.from !== undefined ? "from" : "to", message: `The range covers at most ${MAX_RANGE_DAYS} days, from and to included.` }] };
  return { from, to };
}

/** Every day of the range with its numbers, zeros included, and the totals. */
export function dailyNumbers(range: { from: number; to: number }, views: Map<number, number>, applications: Map<number, number>) {
  const data = [];
  const totals = { views: 0, applications: 0 };
  for (let day = range.from; day <= range.to; day++) {
    const numbers = { date: dateOf(day), views: views.get(day) ?? 0, applications: applications.get(day) ?? 0 };
    totals.views += numbers.views;
    totals.applications += numbers.applications;
    data.push(numbers);
  }
  return { data, totals };
}
