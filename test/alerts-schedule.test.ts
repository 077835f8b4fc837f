import { describe, expect, it } from "vitest";
import { nextScheduledAt, periodOf, timeZoneOf } from "../src/alerts/schedule";

// DESIGN 23, 23a: daily emails at the chosen hour in the time zone of the alert's place or
// province (default America/Toronto), weekly ones on the chosen weekday at that hour; a missed
// hour is sent at the next run, once (the ledger's period is the local date).

describe("when an alert's email is due", () => {
  it("daily: the chosen hour of the next day in the alert's zone (Halifax 08:00 = 12:00 UTC in winter, 11:00 UTC in summer)", () => {
    const daily = { frequency: "daily" as const, hour: 8, weekday: "monday" as const, timeZone: timeZoneOf("NS") };
    expect(new Date(nextScheduledAt(daily, Date.UTC(2026, 11, 1, 10))!).toISOString()).toBe("2026-12-01T12:00:00.000Z");
    expect(new Date(nextScheduledAt(daily, Date.UTC(2026, 11, 1, 12))!).toISOString()).toBe("2026-12-02T12:00:00.000Z");
    expect(new Date(nextScheduledAt(daily, Date.UTC(2026, 6, 1, 0))!).toISOString()).toBe("2026-07-01T11:00:00.000Z");
  });

  it("weekly: the chosen weekday at the chosen hour; default zone America/Toronto (across the November DST change)", () => {
    const weekly = { frequency: "weekly" as const, hour: 7, weekday: "friday" as const, timeZone: timeZoneOf(undefined) };
    expect(weekly.timeZone).toBe("America/Toronto");
    // Monday 2026-10-26 → Friday 2026-10-30 07:00 EDT (11:00 UTC); then Friday 2026-11-06 07:00 EST (12:00 UTC).
    const first = nextScheduledAt(weekly, Date.UTC(2026, 9, 26, 12))!;
    expect(new Date(first).toISOString()).toBe("2026-10-30T11:00:00.000Z");
    expect(new Date(nextScheduledAt(weekly, first)!).toISOString()).toBe("2026-11-06T12:00:00.000Z");
  });

  it("instant alerts have no schedule; the ledger's period is the local date (daily, weekly) or the minute (instant)", () => {
    const instant = { frequency: "instant" as const, hour: 8, weekday: "monday" as const, timeZone: "America/Toronto" };
    expect(nextScheduledAt(instant, Date.now())).toBeNull();
    expect(periodOf({ ...instant, frequency: "daily" }, Date.UTC(2026, 11, 2, 3))).toBe("daily:2026-12-01");
    expect(periodOf(instant, Date.UTC(2026, 11, 2, 3, 4, 5))).toBe("instant:2026-12-02T03:04");
  });
});
