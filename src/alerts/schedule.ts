// DESIGN 23, 23a: when an alert's email is due. Pure: every function takes "now" (a cron run's
// scheduledTime, or the queue's clock) and answers in ms since the epoch.

export const FREQUENCIES = ["instant", "daily", "weekly"] as const;
export type Frequency = (typeof FREQUENCIES)[number];
export const WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** Instant alerts gather their matches this long, then send one email. */
export const INSTANT_GATHER_MS = 10 * 60_000;
/** At most this many instant emails per alert per day (a rolling 24 hours). */
export const INSTANT_PER_DAY = 10;
export const DEFAULT_TIME_ZONE = "America/Toronto";

/** The time zone of each province's largest population (DESIGN 23: the alert's place or province). */
const PROVINCE_TIME_ZONES: Record<string, string> = {
  AB: "America/Edmonton",
  BC: "America/Vancouver",
  MB: "America/Winnipeg",
  NB: "America/Moncton",
  NL: "America/St_Johns",
  NS: "America/Halifax",
  NT: "America/Yellowknife",
  NU: "America/Iqaluit",
  ON: "America/Toronto",
  PE: "America/Halifax",
  QC: "America/Toronto",
  SK: "America/Regina",
  YT: "America/Whitehorse",
};

export const timeZoneOf = (provinceCode: string | null | undefined) => (provinceCode && PROVINCE_TIME_ZONES[provinceCode]) || DEFAULT_TIME_ZONE;

interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  /** 0 = monday … 6 = sunday. */
  weekday: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function localParts(ms: number, timeZone: string): LocalParts {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", { timeZone, hourCycle: "h23", year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", weekday: "short" });
    formatters.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(new Date(ms)).map((part) => [part.type, part.value]));
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    weekday: ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"].indexOf(parts.weekday),
  };
}

/** The instant at local `hour`:00 of the local date y-m-d in `timeZone` (a skipped hour, as at a DST change, comes an hour later). */
function atLocalHour(year: number, month: number, day: number, hour: number, timeZone: string): number {
  const guess = Date.UTC(year, month - 1, day, hour);
  // The zone's offset at the guess, then again at the corrected time (offsets change at most once nearby).
  let ms = guess;
  for (let i = 0; i < 2; i++) {
    const local = localParts(ms, timeZone);
    const asUtc = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute);
    ms = guess - (asUtc - ms);
  }
  return ms;
}

/** The local calendar date of `ms`, as `YYYY-MM-DD` (a daily email's period). */
export function localDate(ms: number, timeZone: string): string {
  const { year, month, day } = localParts(ms, timeZone);
  return `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

export interface Schedule {
  frequency: Frequency;
  hour: number;
  weekday: Weekday;
  timeZone: string;
}

/**
 * The first time after `after` that a daily or weekly email is due: the chosen hour of the next
 * day (weekly: of the chosen weekday) in the alert's zone. Instant alerts have no schedule: null.
 */
export function nextScheduledAt(schedule: Schedule, after: number): number | null {
  if (schedule.frequency === "instant") return null;
  const today = localParts(after, schedule.timeZone);
  for (let offset = 0; offset <= 8; offset++) {
    const date = new Date(Date.UTC(today.year, today.month - 1, today.day + offset));
    const weekday = (date.getUTCDay() + 6) % 7;
    if (schedule.frequency === "weekly" && weekday !== WEEKDAYS.indexOf(schedule.weekday)) continue;
    const at = atLocalHour(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate(), schedule.hour, schedule.timeZone);
    if (at > after) return at;
  }
  throw new RangeError("no next send time within 8 days");
}

/**
 * The ledger key of an email (DESIGN 23: unique per alert and period, so a retry never sends
 * twice): daily and weekly, the local date it was due; instant, the minute its gathering ended.
 */
export function periodOf(schedule: Schedule, dueAt: number): string {
  if (schedule.frequency === "instant") return `instant:${new Date(dueAt).toISOString().slice(0, 16)}`;
  return `${schedule.frequency}:${localDate(dueAt, schedule.timeZone)}`;
}
