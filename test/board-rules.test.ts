import { describe, expect, it } from "vitest";
import { decodeCursor, distanceKm, encodeCursor, ftsQuery, roundKm, searchTokensOf, seqSlotOf, SEQ_PER_SECOND, wordsOf, yearlyTopOf } from "../src/board/rules";

// DESIGN 17 and 17a: the board's pure rules, without HTTP.

describe("the board's order and cursor", () => {
  it("seq: a later publishDate always sorts after every seq of an earlier second, and stays a safe integer to 2106", () => {
    const earlier = seqSlotOf(1_795_000_000);
    const later = seqSlotOf(1_795_000_001);
    expect(earlier.end).toBe(later.first);
    expect(earlier.end - earlier.first).toBe(SEQ_PER_SECOND);
    expect(Number.isSafeInteger(seqSlotOf(2 ** 32 - 1).end - 1)).toBe(true);
  });

  it("the cursor carries the seq the page ended at; anything else is refused", () => {
    const seq = seqSlotOf(1_795_000_000).first + 17;
    expect(decodeCursor(encodeCursor(seq))).toBe(seq);
    for (const bad of ["", "abc", btoa("s-1"), btoa("s01"), btoa("1795360803.1234"), btoa(`s${2 ** 60}`)]) expect(decodeCursor(bad), bad).toBeNull();
  });
});

describe("search words", () => {
  it("q's words are folded for case and accents, at most 8, each up to 40 characters", () => {
    expect(wordsOf("  Comptable AGRÉÉ, Montréal ")).toEqual(["comptable", "agree", "montreal"]);
    expect(wordsOf("a b c d e f g h i j")).toHaveLength(8);
    expect(wordsOf("x".repeat(60))[0]).toHaveLength(40);
  });

  it("a text's tokens are every prefix of every folded word, so a query word is one exact token", () => {
    expect(searchTokensOf("Café Co").split(" ")).toEqual(["c", "ca", "caf", "cafe", "co"]);
    expect(searchTokensOf("y".repeat(50)).split(" ").at(-1)).toHaveLength(40);
    expect(ftsQuery(["agree", 'we"ird'])).toBe('"agree" "we""ird"');
  });
});

describe("salary per year and distance", () => {
  it("the top of the range converted to a year: hourly × 2 080, daily × 260, weekly × 52, monthly × 12", () => {
    const units = (amount: number) => amount * 10_000;
    expect(yearlyTopOf(units(28), units(30), 5)).toBe(62_400);
    expect(yearlyTopOf(units(240), null, 4)).toBe(62_400);
    expect(yearlyTopOf(units(1_100), null, 3)).toBe(57_200);
    expect(yearlyTopOf(units(5_000), null, 2)).toBe(60_000);
    expect(yearlyTopOf(units(50_000), units(55_000), 1)).toBe(55_000);
    expect(yearlyTopOf(null, null, null)).toBeNull();
  });

  it("great-circle distance in km, one decimal rounded half up", () => {
    const toronto = { latitude: 43.70643, longitude: -79.39864 };
    const montreal = { latitude: 45.50884, longitude: -73.58781 };
    expect(distanceKm(toronto, toronto)).toBe(0);
    expect(Math.abs(distanceKm(toronto, montreal) - 504)).toBeLessThan(3);
    expect(roundKm(12.25)).toBe(12.3);
    expect(roundKm(12.35)).toBe(12.4);
    expect(roundKm(12.249)).toBe(12.2);
  });
});
